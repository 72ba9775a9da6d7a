import { x402Client } from "@x402/core/client";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme, signVoucher } from "@x402/evm/batch-settlement/client";
import { createPublicClient, createTestClient, http, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fileURLToPath } from "node:url";
import { startNode, type ServerChild } from "../lib/child.ts";
import { buildPaidServer, paidServerScript } from "../lib/paid-server.ts";
import { devnetEnv, payToBalance, type Devnet } from "../lib/devnet.ts";
import { payerClient, paymentRequiredOf, signPayments, toPaymentHeaders } from "../lib/sign.ts";
import { cpuMs } from "./cpu-per-request.ts";
import type { Scenario } from "./scenario.ts";

/** Payers calling at once, each on its own channel (a channel takes one voucher at a time, in order). */
const WORKERS = 10;
/** The 402 path and vouchers alternate this many times; the CPU goal reads the median of the rounds' ratios. */
const ROUNDS = 5;
/**
 * Before them, one round that is not counted: a fresh process spends its first seconds compiling what just got hot,
 * which weighs most on the cheapest path (the 402 read 2-3x its later rounds, bench/findings.md).
 */
const WARM_UP_ROUNDS = 1;
const VOUCHERS_PER_WORKER = 600;
const EXACT_PER_WORKER = 20;
/** Exact on a chain that makes a block every 2 s, as Base does: each settlement waits for its block. */
const EXACT_BLOCKS_PER_WORKER = 5;
const BLOCK_SECONDS = 2;
const UNPAID_PER_WORKER = 600;
const PATH = "/v1/hash?text=hi";
/** A credit code funded at start: the cheapest paid answer (one store decrement, no signature), for scale. */
const CREDIT_CODE = `cr_${"b".repeat(24)}`;

interface Measured {
  label: string;
  completed: number;
  elapsedS: number;
  reqPerSec: number;
  p50: number;
  cpuUsPerCall: number;
}

const encode = (payload: PaymentPayload) => Buffer.from(JSON.stringify(payload)).toString("base64");
const required402 = async (url: string): Promise<PaymentRequired> =>
  JSON.parse(Buffer.from((await fetch(url)).headers.get("payment-required")!, "base64").toString());

/** Every worker sends its own headers one after another; all workers at once. Latency per request, CPU of the server. */
export async function drive(
  server: ServerChild,
  label: string,
  perWorker: (string | undefined)[][],
  expected: number,
  header = "payment-signature",
) {
  const latencies: number[] = [];
  let completed = 0;
  const cpuBefore = cpuMs(server.pid);
  const started = performance.now();
  await Promise.all(
    perWorker.map(async (headers) => {
      for (const value of headers) {
        const sent = performance.now();
        const res = await fetch(server.url + PATH, { headers: value ? { [header]: value } : {} });
        await res.arrayBuffer();
        latencies.push(performance.now() - sent);
        if (res.status === expected) completed++;
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const cpu = cpuMs(server.pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    label,
    completed,
    elapsedS,
    reqPerSec: completed / elapsedS,
    p50: latencies[Math.floor(latencies.length / 2)],
    cpuUsPerCall: (cpu * 1000) / Math.max(completed, 1),
  } satisfies Measured;
}

/** Opens one channel per worker with the real client (its deposit is the first call), then signs its vouchers ahead. */
export async function voucherHeaders(
  devnet: Devnet,
  server: ServerChild,
  worker: number,
  count = VOUCHERS_PER_WORKER,
): Promise<string[]> {
  const account = privateKeyToAccount(devnet.accounts.payer.privateKey);
  const reader = createPublicClient({ transport: http(devnet.rpcUrl) });
  const signer = toClientEvmSigner(account, reader);
  const required = await required402(server.url + PATH);
  const price = BigInt(required.accepts.find((a) => a.scheme === "batch-settlement")!.amount);
  const scheme = new BatchSettlementEvmScheme(signer, {
    salt: toHex(Date.now() * 100 + worker, { size: 32 }),
    depositStrategy: () => String(price * BigInt(count + 2)),
  });
  const client = new x402Client().register(devnet.network, scheme).setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "batch-settlement"));
  const deposit = await client.createPaymentPayload(required);
  const res = await fetch(server.url + PATH, { headers: { "payment-signature": encode(deposit) } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`deposit answered ${res.status}`);
  const settleResponse = JSON.parse(Buffer.from(res.headers.get("payment-response")!, "base64").toString());
  await client.handlePaymentResponse({ paymentPayload: deposit, requirements: deposit.accepted, settleResponse });
  const template = await client.createPaymentPayload(required);
  const { channelId } = (template.payload as { voucher: { channelId: `0x${string}` } }).voucher;
  const headers: string[] = [];
  for (let k = 0; k < count; k++) {
    const voucher = await signVoucher(signer, channelId, String(price * BigInt(2 + k)), devnet.network);
    headers.push(encode({ ...template, payload: { ...template.payload, voucher } }));
  }
  return headers;
}

const row = (m: Measured) =>
  `| ${m.label} | ${m.completed} | ${m.elapsedS.toFixed(1)} | ${Math.round(m.reqPerSec)} | ${m.p50.toFixed(1)} | ${Math.round(m.cpuUsPerCall)} |`;

export const vouchers: Scenario = {
  id: "vouchers",
  async run(ctx) {
    const devnet = await ctx.devnet();
    // From the build, as bench/run.ts measures our service (it has just run scripts/build.mjs).
    const checkout = fileURLToPath(new URL("../../", import.meta.url));
    await buildPaidServer(checkout);
    const server = await startNode(
      "ours-paid",
      paidServerScript(checkout),
      { ...devnetEnv(devnet), BATCH: "on", CREDIT_CODE: CREDIT_CODE, CREDIT_FUNDS: "1000000000" },
      ctx.nodeArgs("ours-paid", "vouchers"),
    );
    let runs: Measured[];
    let cpuRatios: number[];
    let creditRatios: number[];
    let voucherTotal: { completed: number; elapsedS: number };
    let moved: bigint;
    let price: bigint;
    try {
      const payToBefore = await payToBalance(devnet);
      const exactClient = payerClient(devnet.accounts.payer.privateKey);
      const required = await paymentRequiredOf(exactClient, server.url + PATH);
      price = BigInt(required.accepts[0].amount);
      ctx.log(
        `  signing ${WORKERS} channels x ${VOUCHERS_PER_WORKER} vouchers and ${WORKERS * EXACT_PER_WORKER} exact payments`,
      );
      const voucherSets: string[][] = [];
      for (let w = 0; w < WORKERS; w++) voucherSets.push(await voucherHeaders(devnet, server, w));
      const exactSets: string[][] = [];
      for (let w = 0; w < WORKERS; w++)
        exactSets.push(toPaymentHeaders(exactClient, await signPayments(exactClient, required, EXACT_PER_WORKER)));
      const exactOnBlocks: string[][] = [];
      for (let w = 0; w < WORKERS; w++)
        exactOnBlocks.push(
          toPaymentHeaders(exactClient, await signPayments(exactClient, required, EXACT_BLOCKS_PER_WORKER)),
        );
      const unpaid = Array.from({ length: WORKERS }, () => Array<undefined>(UNPAID_PER_WORKER).fill(undefined));
      const exactRun = await drive(server, "exact (EIP-3009, settled on anvil before answering)", exactSets, 200);
      const exactOnBlocksRun = await withBlockTime(devnet, BLOCK_SECONDS, () =>
        drive(
          server,
          `exact, ${BLOCK_SECONDS} s blocks as on Base (each settlement waits for its block)`,
          exactOnBlocks,
          200,
        ),
      );
      // Each round takes the next slice of every payer's vouchers, which stay in order on their channels.
      const slices = WARM_UP_ROUNDS + ROUNDS;
      const slice = (sets: (string | undefined)[][], round: number) =>
        sets.map((set) => set.slice((round * set.length) / slices, ((round + 1) * set.length) / slices));
      const credited = Array.from({ length: WORKERS }, () => Array<string>(UNPAID_PER_WORKER).fill(CREDIT_CODE));
      const rounds: { unpaid: Measured; vouchers: Measured; credit: Measured }[] = [];
      for (let round = 0; round < slices; round++) {
        const label = round < WARM_UP_ROUNDS ? "warm-up (not counted)" : `round ${round - WARM_UP_ROUNDS + 1}`;
        const unpaidRound = () => drive(server, `${label}: the 402 path (no payment)`, slice(unpaid, round), 402);
        const voucherRound = () => drive(server, `${label}: batch-settlement vouchers`, slice(voucherSets, round), 200);
        const creditRound = () =>
          drive(server, `${label}: a funded credit code`, slice(credited, round), 200, "x-credit-code");
        // Alternate the order, so no path always runs on a warmer process.
        if (round % 2) {
          const vouchers = await voucherRound();
          const credit = await creditRound();
          rounds.push({ unpaid: await unpaidRound(), vouchers, credit });
        } else {
          const unpaidRow = await unpaidRound();
          const credit = await creditRound();
          rounds.push({ unpaid: unpaidRow, vouchers: await voucherRound(), credit });
        }
      }
      const counted = rounds.slice(WARM_UP_ROUNDS);
      runs = [exactRun, exactOnBlocksRun, ...rounds.flatMap((r) => [r.unpaid, r.credit, r.vouchers])];
      cpuRatios = counted.map((r) => r.vouchers.cpuUsPerCall / r.unpaid.cpuUsPerCall).sort((a, b) => a - b);
      creditRatios = counted.map((r) => r.credit.cpuUsPerCall / r.unpaid.cpuUsPerCall).sort((a, b) => a - b);
      voucherTotal = rounds.reduce(
        (sum, r) => ({ completed: sum.completed + r.vouchers.completed, elapsedS: sum.elapsedS + r.vouchers.elapsedS }),
        { completed: 0, elapsedS: 0 },
      );
      for (const m of runs)
        ctx.log(
          `    ${m.label}: ${Math.round(m.reqPerSec)} req/s, p50 ${m.p50.toFixed(1)} ms, ${Math.round(m.cpuUsPerCall)} µs CPU per call`,
        );
      await server.stop();
      moved = (await payToBalance(devnet)) - payToBefore;
    } finally {
      await server.stop();
    }
    const [exactRun, exactOnBlocksRun] = runs;
    const paidCalls = BigInt(exactRun.completed + exactOnBlocksRun.completed + voucherTotal.completed + WORKERS);
    const voucherReqPerSec = voucherTotal.completed / voucherTotal.elapsedS;
    const medianRatio = cpuRatios[Math.floor(cpuRatios.length / 2)];
    return {
      id: "vouchers",
      title: "Vouchers against exact, on anvil, one server",
      notes: [
        `bench/servers/ours-paid.ts with BATCH=on (memory store): ${WORKERS} payers at once, each sending its calls one after another over loopback (fetch). ` +
          `Vouchers: each payer opened its own channel with the real @x402/evm client (the deposit is its first call, not measured), then signed ${VOUCHERS_PER_WORKER} cumulative vouchers ahead. ` +
          `Exact: ${EXACT_PER_WORKER} EIP-3009 authorizations per payer, signed ahead by the real v2 client. The 402 path: the same route without payment. CPU per call: user + system time of the server process (/proc), all threads.`,
        `The 402 path, credit-code calls and vouchers alternate in ${ROUNDS} rounds after ${WARM_UP_ROUNDS} not counted (each takes the next ${VOUCHERS_PER_WORKER / (WARM_UP_ROUNDS + ROUNDS)} of every payer's vouchers; the order changes every round); voucher against 402 CPU per call, round by round: ${cpuRatios.map((r) => `${r.toFixed(2)}x`).join(", ")} (median ${medianRatio.toFixed(2)}x). For scale, a call paid from a funded credit code (no signature, one store decrement) against the 402 path: ${creditRatios.map((r) => `${r.toFixed(2)}x`).join(", ")}.`,
        `On-chain check: after the server stopped (its shutdown claims and settles what it accepted), payTo received ${moved} atomic units for ${paidCalls} paid calls at ${price} each (expected ${paidCalls * price}).`,
      ],
      rows: [],
      table: [
        "| path | answered | s | req/s | p50 ms | CPU µs per call |",
        "|---|---|---|---|---|---|",
        ...runs.map(row),
      ],
      figures: {
        voucherVsExactThroughput: voucherReqPerSec / exactRun.reqPerSec,
        voucherVsExactOnBlocksThroughput: voucherReqPerSec / exactOnBlocksRun.reqPerSec,
        voucherVs402Cpu: medianRatio,
        creditVs402Cpu: creditRatios[Math.floor(creditRatios.length / 2)],
      },
    };
  },
};

/** Anvil mines each transaction at once; for `run`, it makes a block every `seconds` instead, then goes back. */
async function withBlockTime<T>(devnet: Devnet, seconds: number, run: () => Promise<T>): Promise<T> {
  const anvil = createTestClient({ mode: "anvil", transport: http(devnet.rpcUrl) });
  await anvil.setAutomine(false);
  await anvil.setIntervalMining({ interval: seconds });
  try {
    return await run();
  } finally {
    await anvil.setIntervalMining({ interval: 0 });
    await anvil.setAutomine(true);
  }
}
