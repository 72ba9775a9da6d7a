import {
  createNoopSigner,
  generateKeyPairSigner,
  getBase64Encoder,
  getTransactionDecoder,
  signBytes,
  type Address,
  type KeyPairSigner,
  type TransactionSigner,
} from "@solana/kit";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { holdRun, startedBefore } from "../plugin.ts";
import { challengeOf, httpSend, paymentHeaders } from "../transport.ts";
import type { Payer, Payment, Req, Way } from "../way.ts";
import type { World } from "../world.ts";
import { handBuilt, messageOf, resigned } from "./solana-tx.ts";

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
