import pino from "pino";
import type { PaymentPayload } from "@x402/core/types";
import { createRedisStore, type RedisStore } from "../../core/runtime/redis-store.ts";
import type { ClaimRecord } from "../../core/payment/ledger.ts";
import { startRedis } from "../../test/helpers/redis.ts";
import { newPaymentId } from "../../test/helpers/sign.ts";
import { startServer, type ServerChild } from "../lib/child.ts";
import { devnetEnv, payToBalance, type Devnet } from "../lib/devnet.ts";
import { measureForAmount, measureForDuration, spareHeaders, type LoadRow } from "../lib/load.ts";
import { sampleRss, summarizeRss, type RssSampler, type RssSummary } from "../lib/rss.ts";
import { payerClient, paymentRequiredOf, signPayments, toPaymentHeaders, type PayerClient } from "../lib/sign.ts";
import type { BenchContext, Scenario } from "./scenario.ts";

export const SUSTAINED_PHASE_S = 20;
export const SUSTAINED_WARMUP_S = 2;
/** Connections in all, split evenly over the instances. */
export const SUSTAINED_CONNECTIONS = 50;
/** Paid calls in all per instance count (split over the instances), after a warm-up per instance. */
export const SUSTAINED_PAID_CALLS = 2000;
const PAID_WARMUP_PER_INSTANCE = 50;
const PAID_CAP_S = 45;
const PAID_PATH = "/v1/hash?text=hi";

interface Mix {
  name: string;
  path: string;
  expectedStatus: number;
}

const durationMixes: Mix[] = [
  { name: "free route", path: "/health", expectedStatus: 200 },
  { name: "402 path", path: PAID_PATH, expectedStatus: 402 },
];

interface Instance {
  label: string;
  server: ServerChild;
  rss: RssSampler;
  /** The relayer's log lines: a settlement replaced at its nonce, one held at the fee cap. */
  relayer: { replaced: number; atCap: number };
}

interface Combined {
  mix: string;
  instances: number;
  connections: number;
  reqPerSec: number;
  rows: LoadRow[];
}

interface Configuration {
  combined: Combined[];
  memory: Array<{ label: string; summary: RssSummary }>;
  money: PaidCounts;
  replaced: number;
}

/**
 * Where each paid call of a configuration ended, read from the ledger once no settlement is running, beside what
 * the bench received and what landed: transfers = answers + credits + calls in flight at the cap that were settled
 * after the client left (their answers kept for a retry with the payment identifier, which the bench then sends).
 */
interface PaidCounts {
  /** Answers of 200 the bench received during the load (warm-up included). */
  answers: number;
  /** Transfers to payTo, from its balance once nothing was running. */
  transfers: number;
  /** Claims credited: the payment moved and the price went to a credit code. */
  credits: number;
  /** Calls the servers took whose answer the bench never received (claims without an answer), less its timeouts. */
  inFlightAtCap: number;
  /** Of the calls unanswered (in flight at the cap or timed out): settled after the client left. */
  settledUnanswered: number;
  /** Of those: answered afterwards to the payer's retry with the same payment and identifier (`x-payment-replayed`). */
  replayed: number;
  /** Of the calls unanswered: not charged (refused, or failed). */
  spentUnanswered: number;
  /** Claims pending reconciliation, or still running after the wait: unfinished. */
  unfinished: number;
  timeouts: number;
}

/** Each instance settles from its own relayer (others[0] is the @x402/express reference's), so nonces never meet. */
const relayerKeys = (devnet: Devnet) => [devnet.accounts.relayer.privateKey, devnet.accounts.others[1].privateKey];

async function startInstances(ctx: BenchContext, devnet: Devnet, storeUrl: string, count: number): Promise<Instance[]> {
  const instances: Instance[] = [];
  try {
    for (const [index, relayerKey] of relayerKeys(devnet).slice(0, count).entries()) {
      const env = { ...devnetEnv(devnet), DEVNET_RELAYER_KEY: relayerKey, STORE_URL: storeUrl };
      const server = await startServer("ours-paid", env, ctx.nodeArgs(`ours-paid-${index}`, "sustained"));
      const label = count === 1 ? "1 instance" : `${count} instances, #${index + 1}`;
      const relayer = { replaced: 0, atCap: 0 };
      server.onLine((line) => {
        if (line.includes("replaced at its nonce with higher fees")) relayer.replaced++;
        else if (line.includes("its fees are at the cap")) relayer.atCap++;
      });
      instances.push({ label, server, rss: sampleRss(server.pid), relayer });
    }
    return instances;
  } catch (error) {
    await stopInstances(instances);
    throw error;
  }
}

const stopInstances = (instances: Instance[]) => Promise.all(instances.map((i) => (i.rss.stop(), i.server.stop())));

/** One time-bounded mix, the instances loaded side by side by one autocannon each. */
async function durationMix(instances: Instance[], mix: Mix): Promise<Combined> {
  const connections = SUSTAINED_CONNECTIONS / instances.length;
  for (const i of instances) i.rss.phase(mix.name);
  const rows = await Promise.all(
    instances.map((i) =>
      measureForDuration({
        target: `${i.label}, GET ${mix.path}`,
        url: i.server.url + mix.path,
        expectedStatus: mix.expectedStatus,
        connections,
        durationS: SUSTAINED_PHASE_S,
        warmupS: SUSTAINED_WARMUP_S,
      }),
    ),
  );
  return {
    mix: mix.name,
    instances: instances.length,
    connections: SUSTAINED_CONNECTIONS,
    reqPerSec: rows.reduce((sum, r) => sum + r.reqPerSec, 0),
    rows,
  };
}

/**
 * Every payment for an instance is signed before any load starts, so the instances start together. Each carries a
 * payment identifier, as a client that wants its answer after a hang-up sends: the header by nonce is its retry.
 */
async function paymentHeaders(client: PayerClient, url: string, count: number) {
  const required = await paymentRequiredOf(client, url);
  const payloads = (await signPayments(client, required, count)).map((p) => ({
    ...p,
    extensions: { ...p.extensions, "payment-identifier": { info: { required: false, id: newPaymentId() } } },
  }));
  const headers = toPaymentHeaders(client, payloads);
  return {
    price: BigInt(required.accepts[0].amount),
    headers: headers.map((value) => ({ "payment-signature": value })),
    byNonce: new Map(payloads.map((p, i) => [nonceOf(p), headers[i]])),
  };
}

const nonceOf = (p: PaymentPayload) =>
  (p.payload as { authorization: { nonce: string } }).authorization.nonce.toLowerCase();
const nonceOfKey = (claimKey: string) => claimKey.slice(claimKey.lastIndexOf(":") + 1);

/** The ledger's claims of the payments signed for this configuration (a claim key ends with its nonce). */
async function claimsOf(store: RedisStore, nonces: Set<string>) {
  const keys = (await store.keys("x402:claim:")).filter((k) => nonces.has(nonceOfKey(k)));
  const records = await Promise.all(keys.map(async (k) => [k, await store.get<ClaimRecord>(k)] as const));
  return records.filter((r): r is readonly [string, ClaimRecord] => r[1] !== undefined);
}

/** Waits (up to two minutes) until none of these claims is running and no write-ahead record is left. */
async function untilFinished(store: RedisStore, nonces: Set<string>) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const running = (await claimsOf(store, nonces)).filter(([, c]) => c.state === "running").length;
    if (running === 0 && (await store.keys("x402:inflight:")).length === 0) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** The transaction a paid answer's PAYMENT-RESPONSE names. */
function transactionOf(headers: Record<string, string>): string | undefined {
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === "payment-response")?.[1];
  if (!value) return undefined;
  return (JSON.parse(Buffer.from(value, "base64").toString()) as { transaction?: string }).transaction?.toLowerCase();
}

interface PaidRun {
  instance: Instance;
  url: string;
  warm: Awaited<ReturnType<typeof paymentHeaders>>;
  measured: Awaited<ReturnType<typeof paymentHeaders>>;
}

async function paidMix(instances: Instance[], devnet: Devnet, client: PayerClient, store: RedisStore) {
  const connections = SUSTAINED_CONNECTIONS / instances.length;
  const amount = SUSTAINED_PAID_CALLS / instances.length;
  for (const i of instances) i.rss.phase("paid");
  const runs: PaidRun[] = [];
  for (const instance of instances) {
    const url = instance.server.url + PAID_PATH;
    const warm = await paymentHeaders(client, url, PAID_WARMUP_PER_INSTANCE + spareHeaders(connections));
    const measured = await paymentHeaders(client, url, amount + spareHeaders(connections));
    runs.push({ instance, url, warm, measured });
  }
  // A payment is retried where it was signed for: each instance here answers for its own URL (its BASE_URL).
  const retries = new Map(
    runs.flatMap((r) => [...r.warm.byNonce, ...r.measured.byNonce].map(([n, header]) => [n, { url: r.url, header }])),
  );
  const nonces = new Set(retries.keys());
  const answered = new Set<string>();
  const before = await payToBalance(devnet);
  const run = (r: PaidRun, headers: Array<Record<string, string>>, count: number) =>
    measureForAmount({
      target: `${r.instance.label}, paid GET ${PAID_PATH}`,
      url: r.url,
      connections,
      amount: count,
      maxSeconds: PAID_CAP_S,
      expectedStatus: 200,
      headers,
      onResponse: (status, headers) => {
        const transaction = status === 200 ? transactionOf(headers) : undefined;
        if (transaction) answered.add(transaction);
      },
    });
  const warmRows = await Promise.all(runs.map((r) => run(r, r.warm.headers, PAID_WARMUP_PER_INSTANCE)));
  const rows = await Promise.all(runs.map((r) => run(r, r.measured.headers, amount)));
  await untilFinished(store, nonces);
  const transfers = Number(((await payToBalance(devnet)) - before) / runs[0].measured.price);
  const claims = await claimsOf(store, nonces);
  const unanswered = claims.filter(([, c]) => c.state !== "settled" || !answered.has(c.transaction.toLowerCase()));
  const settledUnanswered = unanswered.filter(([, c]) => c.state === "settled");
  // The payer comes back for what it paid and never received: its retry, same payment and identifier.
  let replayed = 0;
  for (const [key] of settledUnanswered) {
    const { url, header } = retries.get(nonceOfKey(key))!;
    const res = await fetch(url, { headers: { "payment-signature": header } });
    if (res.status === 200 && res.headers.get("x-payment-replayed") === "true") replayed++;
    await res.arrayBuffer();
  }
  const timeouts = [...warmRows, ...rows].reduce((sum, r) => sum + r.timeouts, 0);
  const money: PaidCounts = {
    answers: [...warmRows, ...rows].reduce((sum, r) => sum + (r.statusCodes["200"] ?? 0), 0),
    transfers,
    credits: claims.filter(([, c]) => c.state === "credited").length,
    inFlightAtCap: unanswered.length - timeouts,
    settledUnanswered: settledUnanswered.length,
    replayed,
    spentUnanswered: unanswered.filter(([, c]) => c.state === "spent").length,
    unfinished: claims.filter(([, c]) => c.state === "running" || c.state === "pending").length,
    timeouts,
  };
  const completed = rows.reduce((sum, r) => sum + r.completed, 0);
  const reqPerSec = completed / Math.max(...rows.map((r) => r.elapsedS));
  return {
    paid: {
      mix: "paid calls with settlement",
      instances: instances.length,
      connections: SUSTAINED_CONNECTIONS,
      reqPerSec,
      rows,
    },
    money,
  };
}

async function runConfiguration(
  ctx: BenchContext,
  devnet: Devnet,
  storeUrl: string,
  client: PayerClient,
  store: RedisStore,
  count: number,
): Promise<Configuration> {
  const instances = await startInstances(ctx, devnet, storeUrl, count);
  try {
    const combined: Combined[] = [];
    for (const mix of durationMixes) {
      ctx.log(`  ${count} instance(s): ${mix.name}`);
      combined.push(await durationMix(instances, mix));
    }
    ctx.log(`  ${count} instance(s): paid calls`);
    const { paid, money } = await paidMix(instances, devnet, client, store);
    combined.push(paid);
    for (const c of combined)
      ctx.log(`    ${c.mix}: ${Math.round(c.reqPerSec)} req/s, p50 ${c.rows.map((r) => r.p50).join(" / ")} ms`);
    return {
      combined,
      memory: instances.map((i) => ({ label: i.label, summary: summarizeRss(i.rss.stop()) })),
      money,
      replaced: instances.reduce((sum, i) => sum + i.relayer.replaced, 0),
    };
  } finally {
    await stopInstances(instances);
  }
}

const n = (x: number) => Math.round(x).toLocaleString("en-US");
const perInstance = (rows: LoadRow[], pick: (r: LoadRow) => number) =>
  rows.map((r) => (pick(r) === 0 ? "<1" : String(pick(r)))).join(" / ");

function throughputTable(configs: Configuration[]): string[] {
  const mixes = configs[0].combined.map((c) => c.mix);
  const lines = [
    "| mix | instances | connections in all | req/s in all | p50 ms (per instance) | p99 ms (per instance) | requests | errors (timeouts included) + unexpected status |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const mix of mixes) {
    for (const c of configs.flatMap((config) => config.combined.filter((x) => x.mix === mix))) {
      const faults = c.rows.reduce((sum, r) => sum + r.errors + r.unexpected, 0);
      const requests = c.rows.reduce((sum, r) => sum + r.completed, 0);
      lines.push(
        `| ${c.mix} | ${c.instances} | ${c.connections} | ${n(c.reqPerSec)} | ${perInstance(c.rows, (r) => r.p50)} | ${perInstance(c.rows, (r) => r.p99)} | ${n(requests)} | ${faults} |`,
      );
    }
  }
  return lines;
}

function memoryTable(configs: Configuration[]): string[] {
  const f = (x: number) => x.toFixed(0);
  const lines = [
    "| server child | samples | first MB | min MB | median MB | max MB | last MB | at the end of each mix (MB) |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const { label, summary: s } of configs.flatMap((c) => c.memory)) {
    const ends = s.endOfPhaseMB.map((p) => `${p.phase} ${f(p.rssMB)}`).join(" → ");
    lines.push(
      `| ${label} | ${s.samples} | ${f(s.firstMB)} | ${f(s.minMB)} | ${f(s.medianMB)} | ${f(s.maxMB)} | ${f(s.lastMB)} | ${ends} |`,
    );
  }
  return lines;
}

export const sustained: Scenario = {
  id: "sustained",
  async run(ctx) {
    const devnet = await ctx.devnet();
    const redis = await startRedis();
    const store = await createRedisStore(redis.url, pino({ level: "silent" }));
    const client = payerClient(devnet.accounts.payer.privateKey);
    try {
      const configs: Configuration[] = [];
      for (const count of [1, 2]) configs.push(await runConfiguration(ctx, devnet, redis.url, client, store, count));
      const onChain = configs.map((c) => {
        const m = c.money;
        const line =
          `${c.memory.length === 1 ? "one instance" : `${c.memory.length} instances`}: ${m.transfers} transfers = ` +
          `${m.answers} answers + ${m.credits} credits + ${m.settledUnanswered} in flight at the ${PAID_CAP_S} s cap or timed out and settled after their client left ` +
          `(in flight at the cap: ${m.inFlightAtCap}, timed out: ${m.timeouts}; not charged: ${m.spentUnanswered}; unfinished: ${m.unfinished}); ` +
          `the payers' retries then got ${m.replayed} of the ${m.settledUnanswered} answers replayed; the relayer replaced ${c.replaced} settlements`;
        const balanced =
          m.transfers === m.answers + m.credits + m.settledUnanswered &&
          m.unfinished === 0 &&
          m.replayed === m.settledUnanswered;
        ctx.log(`    ${balanced ? "balanced" : "NOT BALANCED"}: ${line}`);
        return balanced ? line : `**not balanced**: ${line}`;
      });
      return {
        id: "sustained",
        title: "10. Sustained load, one and two instances sharing Redis",
        notes: [
          'bench/servers/ours-paid.ts (every plugin, the real paid gate and local facilitator) with `STORE_URL` on one redis-server (loopback, temp dir, `--save ""`, no append-only file) and the bench\'s devnet; with two instances, each settles from its own relayer account. ' +
            `Per instance count, three mixes one after another, ${SUSTAINED_CONNECTIONS} connections in all split evenly over the instances (one autocannon per instance, run side by side): ` +
            `\`GET /health\` and the 402 path (\`GET ${PAID_PATH}\` unpaid), each a ${SUSTAINED_WARMUP_S} s warm-up then ${SUSTAINED_PHASE_S} s measured; then paid calls with settlement, ` +
            `${PAID_WARMUP_PER_INSTANCE} warm-up calls per instance, then ${SUSTAINED_PAID_CALLS} in all, each with its own pre-signed EIP-3009 authorization and payment identifier (as in section 6; capped at ${PAID_CAP_S} s). The relayers' warnings are counted from the servers' logs.`,
          "req/s in all: the sum of the instances' per-second averages for the timed mixes; for paid calls, the calls completed on all instances / the time to the last response. " +
            "Memory: each server child's VmRSS (/proc/<pid>/status) once a second from ready to stop (the paid mix includes the signing before its load).",
          `On-chain check, each configuration's paid calls read from the ledger once no settlement was running: ${onChain.join("; ")}.`,
        ],
        rows: configs.flatMap((c) => c.combined.flatMap((x) => x.rows)),
        table: [...throughputTable(configs), "", ...memoryTable(configs)],
      };
    } finally {
      await store.close();
      await redis.stop();
    }
  },
};
