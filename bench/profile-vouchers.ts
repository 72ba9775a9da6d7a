import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { startNode } from "./lib/child.ts";
import { buildPaidServer, paidServerScript } from "./lib/paid-server.ts";
import { devnetEnv, startDevnet } from "./lib/devnet.ts";
import { drive, voucherHeaders } from "./scenarios/vouchers.ts";

/**
 * The voucher round alone, for a profile: one server (bench/servers/ours-paid.ts of `checkout`, BATCH=on, run from
 * the checkout's build as compare-paths runs it; --source runs it under tsx),
 * `workers` channels opened with the real client, then rounds in which the 402 path and vouchers run through the
 * same driver (one call after another per worker, over fetch), so their CPU per call compares like for like.
 *   npx tsx bench/profile-vouchers.ts [checkout] [--rounds=4] [--per-round=100] [--workers=6] [--cpu-prof=<dir>] [--source]
 * With --cpu-prof the server writes its profile to <dir> on exit, and <dir>/windows.json names when each path ran:
 *   npx tsx bench/profile-summary.ts <dir>/CPU.*.0.001.cpuprofile 30 --windows=<dir>/windows.json:voucher
 * V8's profile samples wall time: a thread the kernel preempts in a system call (the response's writev, when the
 * load generator wakes on the same cores) is charged for the wait. With --perf=<dir>, `perf record` samples the
 * server's CPU alone during each path of the last round (<dir>/402.data, <dir>/voucher.data; JIT names from
 * --perf-basic-prof): perf report -i <dir>/voucher.data --no-children --sort sym --stdio
 */
const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const checkout = resolve(args.find((a) => !a.startsWith("--")) ?? ".");
const rounds = Number(flag("rounds") ?? 4);
const perRound = Number(flag("per-round") ?? 100);
const workers = Number(flag("workers") ?? 6);
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
const windows = { "402": [] as [number, number][], voucher: [] as [number, number][] };
if (profileDir) mkdirSync(profileDir, { recursive: true });
const server = await startNode(
  "ours-paid",
  paidServerScript(checkout, { fromSource }),
  { ...devnetEnv(devnet), BATCH: "on" },
  nodeArgs,
);
try {
  const vouchers: string[][] = [];
  for (let w = 0; w < workers; w++) vouchers.push(await voucherHeaders(devnet, server, w, rounds * perRound));
  const unpaid = Array.from({ length: workers }, () => Array<undefined>(perRound).fill(undefined));
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const slice = vouchers.map((v) => v.slice(round * perRound, (round + 1) * perRound));
    const load = loadavg()[0];
    const perfFile = (path: string) => (perfDir && round === rounds - 1 ? join(perfDir, `${path}.data`) : undefined);
    let started = nowUs();
    const u = await perfWhile(perfFile("402"), server.pid, () => drive(server, "402", unpaid, 402));
    windows["402"].push([started, nowUs()]);
    started = nowUs();
    const v = await perfWhile(perfFile("voucher"), server.pid, () => drive(server, "voucher", slice, 200));
    windows.voucher.push([started, nowUs()]);
    if (v.completed !== workers * perRound)
      throw new Error(`vouchers: ${v.completed} of ${workers * perRound} answered 200`);
    ratios.push(v.cpuUsPerCall / u.cpuUsPerCall);
    console.log(
      `round ${round + 1} (load ${load.toFixed(2)}): 402 ${u.cpuUsPerCall.toFixed(0)} µs, voucher ${v.cpuUsPerCall.toFixed(0)} µs per call, ${ratios.at(-1)!.toFixed(2)}x`,
    );
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`median voucher / 402 (same driver): ${sorted[Math.floor(sorted.length / 2)].toFixed(2)}x`);
  console.log(`${rounds * workers * perRound} calls of each path`);
  if (profileDir) writeFileSync(join(profileDir, "windows.json"), JSON.stringify(windows));
} finally {
  await server.stop();
  await devnet.stop();
}
