import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { startNode } from "./lib/child.ts";
import { buildPaidServer, paidServerScript } from "./lib/paid-server.ts";
import { devnetEnv, startDevnet } from "./lib/devnet.ts";
import { drive, voucherHeaders } from "./scenarios/vouchers.ts";

/**
 * The voucher round, for a profile: one server (bench/servers/ours-paid.ts of `checkout`, BATCH=on, run from
 * the checkout's build as compare-paths runs it; --source runs it under tsx),
 * `workers` channels opened with the real client, then rounds in which the 402 path, a funded credit code (the
 * cheapest paid answer) and vouchers run through the same driver (one call after another per worker, over fetch),
 * so their CPU per call compares like for like; a first round warms the process and is not counted.
 *   npx tsx bench/profile-vouchers.ts [checkout] [--rounds=5] [--per-round=300] [--workers=10] [--cpu-prof=<dir>] [--source]
 * With --cpu-prof the server writes its profile to <dir> on exit, and <dir>/windows.json names when each path ran:
 *   npx tsx bench/profile-summary.ts <dir>/CPU.*.0.001.cpuprofile 30 --windows=<dir>/windows.json:voucher
 * and what a voucher costs over a credit-code call, function by function (calls per path: rounds x per-round x workers):
 *   npx tsx bench/profile-diff.ts <dir>/CPU.*.0.001.cpuprofile <dir>/windows.json voucher credit 15000
 * V8's profile samples wall time: a thread the kernel preempts in a system call (the response's writev, when the
 * load generator wakes on the same cores) is charged for the wait. With --perf=<dir>, `perf record` samples the
 * server's CPU alone during each path of the last round (<dir>/402.data, credit.data, voucher.data; JIT names from
 * --perf-basic-prof): perf report -i <dir>/voucher.data --no-children --sort sym --stdio
 */
const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const checkout = resolve(args.find((a) => !a.startsWith("--")) ?? ".");
const rounds = Number(flag("rounds") ?? 5);
const perRound = Number(flag("per-round") ?? 300);
const workers = Number(flag("workers") ?? 10);
const profileDir = flag("cpu-prof");
const perfDir = flag("perf");
const fromSource = args.includes("--source");

if (!fromSource) {
  execFileSync(process.execPath, [join(checkout, "scripts/build.mjs")], { cwd: checkout, stdio: "ignore" });
  await buildPaidServer(checkout);
}
const devnet = await startDevnet();
const nodeArgs = [
  ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${resolve(profileDir)}`, "--cpu-prof-interval=250"] : []),
  ...(perfDir ? ["--perf-basic-prof"] : []),
];
if (perfDir) mkdirSync(perfDir, { recursive: true });
/** Samples the server's CPU (all its threads) with perf while `run` runs. */
async function perfWhile<T>(file: string | undefined, pid: number, run: () => Promise<T>): Promise<T> {
  if (!file) return run();
  const perf = spawn("perf", ["record", "-F", "1999", "-g", "-p", String(pid), "-o", file], { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 500));
  try {
    return await run();
  } finally {
    const exited = new Promise((r) => perf.once("exit", r));
    perf.kill("SIGINT");
    await exited;
  }
}
/** Monotonic µs, the clock of the profile's timestamps. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const windows = {
  "402": [] as [number, number][],
  credit: [] as [number, number][],
  voucher: [] as [number, number][],
};
/** A funded credit code: the cheapest paid answer (the handler runs, no signature), beside which a voucher's own cost shows. */
const creditCode = `cr_${"c".repeat(24)}`;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const server = await startNode(
  "ours-paid",
  paidServerScript(checkout, { fromSource }),
  { ...devnetEnv(devnet), BATCH: "on", CREDIT_CODE: creditCode, CREDIT_FUNDS: "1000000000000" },
  nodeArgs,
);
try {
  const vouchers: string[][] = [];
  for (let w = 0; w < workers; w++) vouchers.push(await voucherHeaders(devnet, server, w, (rounds + 1) * perRound));
  const unpaid = Array.from({ length: workers }, () => Array<undefined>(perRound).fill(undefined));
  const credited = Array.from({ length: workers }, () => Array<string>(perRound).fill(creditCode));
  const ratios: number[] = [];
  // Round 0 is not counted: a fresh process spends its first seconds compiling what just got hot, which
  // weighs on the cheapest path most (the 402 read 2.5x its later rounds).
  for (let round = 0; round <= rounds; round++) {
    const slice = vouchers.map((v) => v.slice(round * perRound, (round + 1) * perRound));
    const load = loadavg()[0];
    const counted = round > 0;
    const perfFile = (path: string) => (perfDir && round === rounds ? join(perfDir, `${path}.data`) : undefined);
    const timed = async (path: keyof typeof windows, run: () => ReturnType<typeof drive>) => {
      const started = nowUs();
      const measured = await perfWhile(perfFile(path), server.pid, run);
      if (counted) windows[path].push([started, nowUs()]);
      return measured;
    };
    const u = await timed("402", () => drive(server, "402", unpaid, 402));
    const c = await timed("credit", () => drive(server, "credit", credited, 200, "x-credit-code"));
    const v = await timed("voucher", () => drive(server, "voucher", slice, 200));
    if (v.completed !== workers * perRound)
      throw new Error(`vouchers: ${v.completed} of ${workers * perRound} answered 200`);
    if (c.completed !== workers * perRound)
      throw new Error(`credit: ${c.completed} of ${workers * perRound} answered 200`);
    const line = `402 ${u.cpuUsPerCall.toFixed(0)} µs, credit ${c.cpuUsPerCall.toFixed(0)} µs, voucher ${v.cpuUsPerCall.toFixed(0)} µs per call, ${(v.cpuUsPerCall / u.cpuUsPerCall).toFixed(2)}x`;
    if (!counted) {
      console.log(`warm-up round (load ${load.toFixed(2)}, not counted): ${line}`);
      continue;
    }
    ratios.push(v.cpuUsPerCall / u.cpuUsPerCall);
    console.log(`round ${round} (load ${load.toFixed(2)}): ${line}`);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`median voucher / 402 (same driver): ${sorted[Math.floor(sorted.length / 2)].toFixed(2)}x`);
  console.log(
    `${rounds * workers * perRound} calls of each path counted, after ${workers * perRound} each not counted`,
  );
  if (profileDir) writeFileSync(join(profileDir, "windows.json"), JSON.stringify(windows));
} finally {
  await server.stop();
  await devnet.stop();
}
