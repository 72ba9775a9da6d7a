import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { basename, join, resolve } from "node:path";
import { devAccount } from "../core/x402/devnet/index.ts";
import { startNode, type ServerChild } from "./lib/child.ts";
import { buildPaidServer, paidServerScript } from "./lib/paid-server.ts";
import { devnetEnv, startDevnet, type Devnet } from "./lib/devnet.ts";
import { payerClient, paymentRequiredOf, signPayments, toPaymentHeaders } from "./lib/sign.ts";
import { atFixedRate } from "./scenarios/cpu-per-request.ts";
import { drive, voucherHeaders } from "./scenarios/vouchers.ts";

/**
 * CPU per call of the 402 path, the exact paid path and the voucher path, for two or more checkouts side by side:
 *   npx tsx bench/compare-paths.ts <checkout> <checkout>... [--rounds=5] [--source]
 * Each checkout runs its own bench/servers/ours-paid.ts (real gate, real local facilitator, BATCH=on) on one
 * shared devnet, compiled beside its build in dist/ and run by plain Node, as `npm start` runs the service
 * (--source runs the sources under tsx instead, whose names for closures cost every call a defineProperty).
 * Every round starts a fresh process per checkout and measures each path on each, the order of the checkouts
 * reversed every other round; the ratio that counts is the one inside a round, by its median.
 * Exact payments are signed ahead by the real v2 client, one payer per worker (distinct wallets, as real
 * traffic is); voucher channels are opened with the real client (the deposit is not measured).
 * "402 driven" is the 402 path through the vouchers' driver (each worker one call after another over fetch), the
 * base of the vouchers scenario's goal ratio; the last table gives that ratio per checkout, round by round.
 */
const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const rounds = Number(flag("rounds") ?? 5);
const fromSource = args.includes("--source");
const dirs = args.filter((a) => !a.startsWith("--")).map((d) => resolve(d));
if (dirs.length < 2 || dirs.some((d) => !existsSync(join(d, "bench/servers/ours-paid.ts")))) {
  console.error("usage: npx tsx bench/compare-paths.ts <checkout> <checkout>... [--rounds=N] [--source]");
  process.exit(2);
}

const PATH = "/v1/hash?text=hi";
const WORKERS = 6;
const EXACT_PER_WORKER = 15;
const VOUCHERS_PER_WORKER = 100;
/** Vouchers each worker pays first, not measured: a fresh process compiles the voucher path on its first calls. */
const VOUCHER_WARMUP = 50;
const paths = ["402", "402 driven", "exact", "voucher"] as const;
type PathName = (typeof paths)[number];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Dev accounts 3.. are funded with test USDC and used by nothing else in this run. */
const exactPayers = Array.from({ length: WORKERS }, (_, i) => devAccount(3 + i).privateKey);

async function exactHeaders(server: ServerChild): Promise<string[][]> {
  return Promise.all(
    exactPayers.map(async (key) => {
      const client = payerClient(key);
      const required = await paymentRequiredOf(client, server.url + PATH);
      return toPaymentHeaders(client, await signPayments(client, required, EXACT_PER_WORKER));
    }),
  );
}

async function measure(devnet: Devnet, server: ServerChild, label: string): Promise<Record<PathName, number>> {
  const fixedRate = (await atFixedRate(label, server, PATH)).cpuUsPerRequest;
  const exact = await drive(server, `${label} exact`, await exactHeaders(server), 200);
  const vouchers: string[][] = [];
  for (let w = 0; w < WORKERS; w++)
    vouchers.push(await voucherHeaders(devnet, server, w, VOUCHER_WARMUP + VOUCHERS_PER_WORKER));
  const warm = await drive(
    server,
    `${label} voucher warm-up`,
    vouchers.map((v) => v.slice(0, VOUCHER_WARMUP)),
    200,
  );
  if (warm.completed !== WORKERS * VOUCHER_WARMUP) throw new Error(`${label}: the voucher warm-up was refused`);
  const unpaid = Array.from({ length: WORKERS }, () => Array<undefined>(VOUCHERS_PER_WORKER).fill(undefined));
  // Warmed as the vouchers are: measured cold, a fresh process's 402 reads 2-3x its steady cost.
  await drive(server, `${label} 402 driven warm-up`, unpaid, 402);
  const driven = await drive(server, `${label} 402 driven`, unpaid, 402);
  const voucher = await drive(
    server,
    `${label} voucher`,
    vouchers.map((v) => v.slice(VOUCHER_WARMUP)),
    200,
  );
  for (const [name, m, expected] of [
    ["exact", exact, WORKERS * EXACT_PER_WORKER],
    ["voucher", voucher, WORKERS * VOUCHERS_PER_WORKER],
    ["402 driven", driven, WORKERS * VOUCHERS_PER_WORKER],
  ] as const)
    if (m.completed !== expected) throw new Error(`${label}: ${name} answered ${m.completed} of ${expected} with 200`);
  return {
    "402": fixedRate,
    "402 driven": driven.cpuUsPerCall,
    exact: exact.cpuUsPerCall,
    voucher: voucher.cpuUsPerCall,
  };
}

const labels = dirs.map((d, i) => (dirs.indexOf(d) === i ? basename(d) : `${basename(d)}#${i + 1}`));
for (const dir of dirs) {
  execFileSync(process.execPath, [join(dir, "scripts/build.mjs")], { cwd: dir, stdio: "ignore" });
  if (!fromSource) await buildPaidServer(dir);
}
const devnet = await startDevnet();
const load = loadavg()[0];
const us = dirs.map(() => Object.fromEntries(paths.map((p) => [p, [] as number[]])) as Record<PathName, number[]>);
try {
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? [...dirs.keys()] : [...dirs.keys()].reverse();
    for (const i of order) {
      const server = await startNode(
        labels[i],
        paidServerScript(dirs[i], { fromSource }),
        { ...devnetEnv(devnet), BATCH: "on" },
        [],
      );
      try {
        const m = await measure(devnet, server, labels[i]);
        for (const p of paths) us[i][p].push(m[p]);
      } finally {
        await server.stop();
      }
    }
    console.error(
      `round ${round} (load ${loadavg()[0].toFixed(2)}): ${labels.map((l, i) => `${l} ${paths.map((p) => `${p} ${us[i][p].at(-1)!.toFixed(0)}`).join(" ")} µs`).join("; ")}`,
    );
  }
} finally {
  await devnet.stop();
}

console.log(
  `CPU per call (GET ${PATH}) of the server process, ${rounds} alternating rounds, fresh processes each round; ` +
    `402 at a fixed rate, exact: ${WORKERS} payers x ${EXACT_PER_WORKER} settled on anvil, vouchers: ${WORKERS} channels x ${VOUCHERS_PER_WORKER} after ${VOUCHER_WARMUP} each unmeasured; ` +
    `load ${load.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`,
);
console.log("| checkout | path | median µs | per round | within a round, to the first: median (min-max) |");
console.log("|---|---|---:|---|---:|");
for (const [i, label] of labels.entries())
  for (const p of paths) {
    const ratios = us[i][p].map((u, r) => u / us[0][p][r]);
    console.log(
      `| ${label} | ${p} | ${median(us[i][p]).toFixed(0)} | ${us[i][p].map((u) => u.toFixed(0)).join(" ")} | ` +
        `${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}) |`,
    );
  }
console.log("\n| checkout | voucher / 402 driven, per round | median |\n|---|---|---:|");
for (const [i, label] of labels.entries()) {
  const ratios = us[i].voucher.map((u, r) => u / us[i]["402 driven"][r]);
  console.log(`| ${label} | ${ratios.map((r) => r.toFixed(2)).join(" ")} | ${median(ratios).toFixed(2)}x |`);
}
