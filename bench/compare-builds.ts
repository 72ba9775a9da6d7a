import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startNode, type ServerChild } from "./lib/child.ts";
import { atFixedRate, FIXED_RATE } from "./scenarios/cpu-per-request.ts";
import { configured } from "./scenarios/options-402.ts";

/**
 * CPU per 402 answer of two or more checkouts of the service, side by side on the same machine at the same time:
 *   npx tsx bench/compare-builds.ts <checkout> <checkout>... [--rounds=7] [--options=base] [--cpu-prof]
 * A checkout is a folder holding the service at some commit (`git worktree add <dir> <sha>`, with node_modules
 * installed or linked). Each is built (its own scripts/build.mjs) and run as bench/servers/ours.mjs runs it.
 * Every round starts one process per checkout and measures each at the fixed rate of atFixedRate, the order
 * reversed every other round. The ratio that counts is the one inside a round (same minute, same neighbours),
 * summarized by its median; fresh processes each round, because one process can sit ~10% above another of the
 * same build for its whole life (an A/A run, the same checkout twice, shows the noise floor).
 */
const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const rounds = Number(flag("rounds") ?? 7);
const options = flag("options") ?? "base";
const profile = args.includes("--cpu-prof");
const dirs = args.filter((a) => !a.startsWith("--")).map((d) => resolve(d));
const path = "/v1/hash?text=hi";
if (dirs.length < 2 || dirs.some((d) => !existsSync(join(d, "scripts/build.mjs")))) {
  console.error("usage: npx tsx bench/compare-builds.ts <checkout> <checkout>... [--rounds=N] [--options=base]");
  process.exit(2);
}

const profilesDir = fileURLToPath(new URL("./profiles/", import.meta.url));
const nodeArgs = (label: string) => {
  if (!profile) return [];
  const dir = join(profilesDir, `compare-${label}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return ["--cpu-prof", `--cpu-prof-dir=${dir}`];
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}`;

async function startChecked(dir: string, label: string): Promise<ServerChild & { answer: string }> {
  const server = await startNode(label, [join(dir, "bench/servers/ours.mjs")], configured(options), nodeArgs(label));
  const res = await fetch(server.url + path);
  const body = await res.text();
  const challenge = res.headers.get("payment-required");
  if (res.status !== 402 || !challenge) {
    await server.stop();
    throw new Error(`${label} answered ${res.status} without the 402 challenge`);
  }
  return Object.assign(server, { answer: `PAYMENT-REQUIRED ${challenge.length} chars, body ${body.length} B` });
}

// The same checkout twice is an A/A run.
const labels = dirs.map((d, i) => (dirs.indexOf(d) === i ? basename(d) : `${basename(d)}#${i + 1}`));
for (const dir of dirs) execFileSync(process.execPath, [join(dir, "scripts/build.mjs")], { cwd: dir, stdio: "ignore" });
const load = loadavg()[0];
const us: number[][] = dirs.map(() => []);
for (let round = 1; round <= rounds; round++) {
  const servers: ServerChild[] = [];
  try {
    for (const [i, dir] of dirs.entries()) {
      const server = await startChecked(dir, labels[i]);
      servers.push(server);
      if (round === 1) console.error(`${labels[i]}: ${server.answer}`);
    }
    const order = round % 2 ? [...dirs.keys()] : [...dirs.keys()].reverse();
    for (const i of order) us[i].push((await atFixedRate(labels[i], servers[i], path)).cpuUsPerRequest);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  console.error(`round ${round}: ${labels.map((l, i) => `${l} ${us[i].at(-1)!.toFixed(1)} µs`).join(", ")}`);
}
console.log(
  `CPU per 402 answer (GET ${path}, X402_OPTIONS=${options}) at ${FIXED_RATE} req/s, ${rounds} alternating rounds; ` +
    `load ${load.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`,
);
console.log("| checkout | median µs | min-max µs | per round | within a round, to the first: median (min-max) |");
console.log("|---|---:|---:|---|---:|");
for (const [i, label] of labels.entries()) {
  const ratios = us[i].map((u, r) => u / us[0][r]);
  console.log(
    `| ${label} | ${median(us[i]).toFixed(1)} | ${spread(us[i])} | ${us[i].map((u) => u.toFixed(1)).join(" ")} | ` +
      `${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}) |`,
  );
}
