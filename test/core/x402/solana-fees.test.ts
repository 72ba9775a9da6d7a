import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type KeyPairSigner,
} from "@solana/kit";
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import {
  startDevnet,
  startPaidService,
  startSolanaDevnet,
  type Devnet,
  type SolanaDevnet,
} from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { challengeOf, toHeader } from "../../helpers/sign.ts";

/**
 * The Solana fee payer is ours: every signature a payment's transaction asks costs it 5,000 lamports and the
 * priority fee (compute units x unit price) is its too, so the binding bounds both before anything reads the
 * chain. Counted on the local Solana chain: the fee payer's lamports, the facilitator's calls, the handler's runs.
 */
let evm: Devnet;
let solana: SolanaDevnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
const facilitatorCalls = { count: 0 };
const path = "/v1/probe?echo=fee";
const url = `http://127.0.0.1:4021${path}`;
const price = 1000n;
const COMPUTE_BUDGET = address("ComputeBudget111111111111111111111111111111");
const MEMO = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

const counted = (real: Facilitator): Facilitator => ({
  ...real,
  verify: (payload, requirements) => (facilitatorCalls.count++, real.verify(payload, requirements)),
  settle: (payload, requirements) => (facilitatorCalls.count++, real.settle(payload, requirements)),
});

before(async () => {
  [evm, solana] = await Promise.all([startDevnet(), startSolanaDevnet()]);
  service = await startPaidService(evm, { plugins: [probePlugin], solana, facilitator: counted });
});
after(async () => {
  await service?.close();
  await Promise.all([evm?.stop(), solana?.stop()]);
});

const feePayerLamports = () => solana.node.svm.getBalance(solana.accounts.feePayer.address as never) ?? 0n;

async function holder() {
  const signer = await generateKeyPairSigner();
  await solana.fund(signer.address, 10_000n);
  return signer;
}

async function offer() {
  const required = await challengeOf(service.fetch, url);
  return { required, accepted: required.accepts.find((a: { network: string }) => a.network === solana.network) };
}

/** The client's own transaction, except for its compute budget and any further signers it makes the memo ask for. */
async function bentTransaction(
  signer: KeyPairSigner,
  accepted: { asset: string; payTo: string; extra: { feePayer: string } },
  bend: { units: number; microLamports: bigint; extraSigners?: KeyPairSigner[] },
) {
  const mint = address(accepted.asset);
  const ata = async (owner: string) =>
    (await findAssociatedTokenPda({ mint, owner: address(owner), tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
  const limit = new Uint8Array(5);
  limit[0] = 2;
  new DataView(limit.buffer).setUint32(1, bend.units, true);
  const unitPrice = new Uint8Array(9);
  unitPrice[0] = 3;
  new DataView(unitPrice.buffer).setBigUint64(1, bend.microLamports, true);
  const transfer = getTransferCheckedInstruction({
    source: await ata(signer.address),
    mint,
    destination: await ata(accepted.payTo),
    authority: signer,
    amount: price,
    decimals: 6,
  });
  const memo = {
    programAddress: MEMO,
    accounts: (bend.extraSigners ?? []).map((s) => ({
      address: s.address,
      role: AccountRole.READONLY_SIGNER,
      signer: s,
    })),
    data: new TextEncoder().encode(crypto.randomUUID().replaceAll("-", "")),
  };
  const { value: blockhash } = await createSolanaRpc(solana.rpcUrl).getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(address(accepted.extra.feePayer), m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          { programAddress: COMPUTE_BUDGET, data: limit },
          { programAddress: COMPUTE_BUDGET, data: unitPrice },
          transfer,
          memo,
        ],
        m,
      ),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
  );
  return getBase64EncodedWireTransaction(await partiallySignTransactionMessageWithSigners(message));
}

/** Pays the probe with `transaction`; what the call cost the fee payer, the handler and the facilitator. */
async function payWith(transaction: string | ((accepted: any) => Promise<string>)) {
  const { required, accepted } = await offer();
  const wire = typeof transaction === "string" ? transaction : await transaction(accepted);
  const [lamports, runs, calls] = [feePayerLamports(), handlerRuns.count, facilitatorCalls.count];
  const header = toHeader({ x402Version: 2, resource: required.resource, accepted, payload: { transaction: wire } });
  const res = await service.fetch(url, { headers: { "payment-signature": header } });
  const body = await res.json();
  return {
    status: res.status,
    reason: body.reason,
    feePaid: lamports - feePayerLamports(),
    handlerRuns: handlerRuns.count - runs,
    facilitatorCalls: facilitatorCalls.count - calls,
  };
}

test("solana fees: @x402/svm's own client pays: the fee payer spends 10,001 lamports (two signatures, 20,000 units at 1 micro-lamport)", async () => {
  const signer = await holder();
  const paid = await payWith(
    async (accepted) =>
      (await new ExactSvmScheme(signer, { rpcUrl: solana.rpcUrl }).createPaymentPayload(2, accepted)).payload
        .transaction as string,
  );
  assert.deepEqual(paid, { status: 200, reason: undefined, feePaid: 10_001n, handlerRuns: 1, facilitatorCalls: 2 });
  assert.equal(await solana.balance(signer.address), 10_000n - price);
});

test("solana fees: a bent compute budget or extra signers are refused before any RPC: 0 lamports, 0 handler runs, nothing moved", async () => {
  const signer = await holder();
  const extraSigners = await Promise.all(Array.from({ length: 10 }, () => generateKeyPairSigner()));
  const cases = [
    // The finding: Solana's most units at @x402/svm's highest unit price, 7,010,000 lamports for a $0.001 call.
    { units: 1_400_000, microLamports: 5_000_000n, reason: "compute_limit_instruction_too_high" },
    { units: 200_000, microLamports: 5_000_000n, reason: "compute_price_instruction_too_high" },
    { units: 20_000, microLamports: 250_001n, reason: "compute_price_instruction_too_high" },
    { units: 20_000, microLamports: 1n, extraSigners, reason: "excessive_signers" },
    { units: 20_000, microLamports: 1n, extraSigners: extraSigners.slice(0, 1), reason: "excessive_signers" },
  ];
  for (const { reason, ...bend } of cases) {
    const refused = await payWith((accepted) => bentTransaction(signer, accepted, bend));
    assert.deepEqual(
      refused,
      {
        status: 402,
        reason: `invalid_exact_svm_payload_${reason.includes("signers") ? "" : "transaction_instructions_"}${reason}`,
        feePaid: 0n,
        handlerRuns: 0,
        facilitatorCalls: 0,
      },
      `${bend.units} units at ${bend.microLamports}, ${bend.extraSigners?.length ?? 0} extra signers`,
    );
  }
  assert.equal(await solana.balance(signer.address), 10_000n);
});

test("solana fees: the most a payment may cost the fee payer is 15,000 lamports, three base fees", async () => {
  const signer = await holder();
  for (const bend of [
    { units: 200_000, microLamports: 25_000n },
    { units: 20_000, microLamports: 250_000n },
  ]) {
    const paid = await payWith((accepted) => bentTransaction(signer, accepted, bend));
    assert.deepEqual(paid, { status: 200, reason: undefined, feePaid: 15_000n, handlerRuns: 1, facilitatorCalls: 2 });
  }
  assert.equal(await solana.balance(signer.address), 10_000n - 2n * price);
});
