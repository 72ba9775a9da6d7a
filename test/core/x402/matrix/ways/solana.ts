import {
  AccountRole,
  appendTransactionMessageInstructions,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  getTransactionEncoder,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signBytes,
  type Address,
  type Blockhash,
  type KeyPairSigner,
  type TransactionSigner,
} from "@solana/kit";
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { holdRun, startedBefore } from "../plugin.ts";
import { challengeOf, httpSend, paymentHeaders } from "../transport.ts";
import type { Payer, Payment, Req, Way } from "../way.ts";
import type { World } from "../world.ts";

const COMPUTE_BUDGET = "ComputeBudget111111111111111111111111111111" as Address;
const MEMO = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address;
const le = (value: bigint, bytes: number) => {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = Number((value >> BigInt(8 * i)) & 0xffn);
  return out;
};

/** The @x402/svm client's transaction, built by hand with the compute budget and extra signers an attacker picks. */
async function handBuilt(
  signer: KeyPairSigner,
  r: { asset: string; payTo: string; amount: string; extra: { feePayer: string } },
  rpcUrl: string,
  o: { units: number; microLamports: bigint; extraSigners: TransactionSigner[] },
) {
  const mint = r.asset as Address;
  const tokenProgram = TOKEN_PROGRAM_ADDRESS;
  const [source] = await findAssociatedTokenPda({ mint, owner: signer.address, tokenProgram });
  const [destination] = await findAssociatedTokenPda({ mint, owner: r.payTo as Address, tokenProgram });
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getLatestBlockhash", params: [] }),
  });
  const { value } = ((await res.json()) as { result: { value: { blockhash: string; lastValidBlockHeight: number } } })
    .result;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(r.extra.feePayer as Address, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          { programAddress: COMPUTE_BUDGET, data: new Uint8Array([2, ...le(BigInt(o.units), 4)]) },
          { programAddress: COMPUTE_BUDGET, data: new Uint8Array([3, ...le(o.microLamports, 8)]) },
          getTransferCheckedInstruction({
            source,
            mint,
            destination,
            authority: signer,
            amount: BigInt(r.amount),
            decimals: 6,
          }),
          {
            programAddress: MEMO,
            accounts: o.extraSigners.map((s) => ({ address: s.address, role: AccountRole.READONLY_SIGNER, signer: s })),
            data: new TextEncoder().encode(crypto.randomUUID()),
          },
        ],
        m,
      ),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: value.blockhash as Blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) },
        m,
      ),
  );
  return getBase64EncodedWireTransaction(await partiallySignTransactionMessageWithSigners(message));
}

/** The wire transaction with `address`'s signature replaced by `signature`. */
function resigned(wire: string, address: string, signature: Uint8Array) {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
  const bytes = getTransactionEncoder().encode({ ...tx, signatures: { ...tx.signatures, [address]: signature } });
  return Buffer.from(bytes as Uint8Array).toString("base64");
}
const messageOf = (wire: string) => getTransactionDecoder().decode(getBase64Encoder().encode(wire)).messageBytes;

/** The `exact` scheme on the local Solana chain, paid with @x402/svm's client: v2 (PAYMENT-SIGNATURE) or v1 (X-PAYMENT). */
export function solanaWay(world: () => World, o: Pick<Way, "name" | "offers" | "na"> & { version: 1 | 2 }): Way {
  const svm = () => world().svm;
  interface Signing {
    paymentId?: string;
    extensions?: Record<string, unknown>;
    /** Builds the transaction instead of the real client. */
    build?: (requirement: any) => Promise<string>;
  }
  async function signed(signer: TransactionSigner, req: Req, s: Signing = {}) {
    const { v2, v1 } = await challengeOf(world().one, req);
    const network = svm().network;
    const accepted =
      o.version === 2
        ? v2.accepts.find((a: { network: string }) => a.network === network)
        : v1.accepts.find((a: { network: string }) => a.network === "solana-devnet");
    const requirement = o.version === 2 ? accepted : { ...accepted, amount: accepted.maxAmountRequired };
    const transaction = s.build
      ? await s.build(requirement)
      : ((
          await new ExactSvmScheme(signer as KeyPairSigner, { rpcUrl: svm().solana.rpcUrl }).createPaymentPayload(
            o.version,
            requirement,
          )
        ).payload.transaction as string);
    if (o.version === 1)
      return { x402Version: 1, scheme: "exact", network: accepted.network, payload: { transaction } };
    const extensions = {
      ...(s.paymentId ? { "payment-identifier": { info: { required: false, id: s.paymentId } } } : {}),
      ...s.extensions,
    };
    return {
      x402Version: 2,
      resource: v2.resource,
      accepted,
      payload: { transaction },
      ...(Object.keys(extensions).length ? { extensions } : {}),
    };
  }
  const paymentOf = (req: Req, body: { x402Version: number }): Payment => ({
    send: (to, signal) => httpSend(to, req, paymentHeaders(body), signal),
  });
  const pays = async (signer: TransactionSigner, req: Req, s?: Signing) => paymentOf(req, await signed(signer, req, s));

  type SvmPayer = Payer & { signer: KeyPairSigner };
  async function funded(calls: number): Promise<SvmPayer> {
    const signer = await generateKeyPairSigner();
    if (calls > 0) await svm().fund(signer.address, 1000n * BigInt(calls));
    const start = await svm().balance(signer.address);
    return {
      id: signer.address,
      signer,
      pay: (req, p) => pays(signer, req, { paymentId: p?.paymentId }),
      async spent() {
        return {
          value: start - (await svm().balance(signer.address)),
          transfers: (await svm().landed(signer.address)).ok,
        };
      },
    };
  }
  const write = (key: string) => ({ req: { name: "matrix-write", args: { key } }, keys: [key] });

  return {
    name: o.name,
    offers: o.offers,
    na: o.na,
    decimals: 6,
    charge: 1000n,
    write,
    payer: (n = 1) => funded(n),
    victim: () => funded(1),
    async forge(req, victim) {
      // Built in the victim's name (its signature left empty), then signed by the attacker's key.
      const attacker = await generateKeyPairSigner();
      const body = (await signed(createNoopSigner(victim.id as Address), req)) as any;
      const wire = body.payload.transaction;
      const signature = await signBytes(attacker.keyPair.privateKey, messageOf(wire));
      return { payment: paymentOf(req, { ...body, payload: { transaction: resigned(wire, victim.id, signature) } }) };
    },
    async respell(payer, req) {
      const body = (await signed((payer as SvmPayer).signer, req)) as any;
      const wire: string = body.payload.transaction;
      const bare = wire.replace(/=+$/, "");
      return [paymentOf(req, body), paymentOf(req, { ...body, payload: { transaction: bare } })];
    },
    async forged(req, extensions) {
      const payer = await funded(1);
      const body = (await signed(payer.signer, req, { extensions })) as any;
      const wire = body.payload.transaction;
      const signature = new Uint8Array(
        getTransactionDecoder().decode(getBase64Encoder().encode(wire)).signatures[payer.id as Address] as Uint8Array,
      );
      signature[10] ^= 1;
      return paymentOf(req, { ...body, payload: { transaction: resigned(wire, payer.id, signature) } });
    },
    unfunded: async (req) => pays(await generateKeyPairSigner(), req),
    async costs(w, key) {
      // What the fee payer pays for a plain payment, and for the worst transactions the binding lets through.
      const lamports = async (build?: Signing["build"], payer?: SvmPayer) => {
        const p = payer ?? (await funded(1));
        const before = await svm().feePayerLamports();
        const answer = await (await pays(p.signer, write(`${key}-${build ? "worst" : "plain"}`).req, { build })).send(
          w.one,
        );
        return { status: answer.status, spent: before - (await svm().feePayerLamports()) };
      };
      const plain = await lamports();
      if (plain.status !== 200) throw new Error(`a plain Solana payment answered ${plain.status}`);
      const worst = async (units: number, microLamports: bigint, signers: number) => {
        const p = await funded(1);
        const extraSigners = await Promise.all(Array.from({ length: signers }, () => generateKeyPairSigner()));
        return lamports((r) => handBuilt(p.signer, r, svm().solana.rpcUrl, { units, microLamports, extraSigners }), p);
      };
      const maxUnits = await worst(1_400_000, 5_000_000n, 0);
      const manySigners = await worst(200_000, 1n, 10);
      return [
        {
          what: "fee-payer lamports, 1.4M units at the highest price",
          actual: maxUnits.spent,
          atMost: 5n * plain.spent,
        },
        { what: "fee-payer lamports, ten extra signers", actual: manySigners.spent, atMost: 5n * plain.spent },
      ];
    },
    async expiring(req, keys) {
      const payer = await funded(1);
      const payment = await payer.pay(req);
      const hold = holdRun(keys[0]);
      const answer = payment.send(world().one);
      await startedBefore(hold, answer);
      svm().solana.node.skipMinute();
      hold.release();
      return { answer: await answer, payer };
    },
    loseReply() {
      svm().proxy.loseSendReplies(1);
      return { done: () => svm().proxy.loseSendReplies(0) };
    },
  };
}
