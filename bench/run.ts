import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { startDevnet, type Devnet } from "./lib/devnet.ts";
import { evaluateGoals } from "./lib/goals.ts";
import { describeMachine } from "./lib/machine.ts";
import { renderReport } from "./lib/report.ts";
import { boot } from "./scenarios/boot.ts";
import { hono402 } from "./scenarios/hono-402.ts";
import { options402 } from "./scenarios/options-402.ts";
import { ours400, ours402, oursHealth } from "./scenarios/ours-unpaid.ts";
import { paidSettle, paidVerifyOnly } from "./scenarios/paid.ts";
import { rawH3 } from "./scenarios/raw-h3.ts";
import type { BenchContext, Scenario, Section } from "./scenarios/scenario.ts";
import { sigcheck } from "./scenarios/sigcheck.ts";
import { cpuPerRequest } from "./scenarios/cpu-per-request.ts";
import { soak } from "./scenarios/soak.ts";
import { sustained } from "./scenarios/sustained.ts";
import { vouchers } from "./scenarios/vouchers.ts";

/**
 * `npm run bench` runs every scenario and writes bench/RESULTS.md.
 * `npm run bench -- 402 hono-402` runs only those and prints the report without touching RESULTS.md.
 * `--cpu-prof` writes a CPU profile of every server child to bench/profiles/ (see bench/profile-summary.ts).
 */
const scenarios: Scenario[] = [
  rawH3,
  oursHealth,
  ours402,
  ours400,
  hono402,
  options402,
  paidSettle,
  paidVerifyOnly,
  vouchers,
  sigcheck,
  boot,
  sustained,
  soak,
  cpuPerRequest,
];

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const args = process.argv.slice(2);
const profile = args.includes("--cpu-prof");
const asked = args.filter((a) => !a.startsWith("--"));
const unknown = asked.filter((id) => !scenarios.some((s) => s.id === id));
if (unknown.length) {
  console.error(`Unknown scenario ${unknown.join(", ")}; choose from: ${scenarios.map((s) => s.id).join(", ")}`);
  process.exit(2);
}
const selected = asked.length ? scenarios.filter((s) => asked.includes(s.id)) : scenarios;
const everything = selected.length === scenarios.length;

let devnet: Promise<Devnet> | undefined;
const ctx: BenchContext = {
  devnet: () => (devnet ??= startDevnet()),
  nodeArgs(server, scenario) {
    if (!profile) return [];
    // One folder per child: Node writes one profile per thread there (the main thread's is the largest).
    const dir = here(`./profiles/${scenario}-${server}-${Date.now()}/`);
    mkdirSync(dir, { recursive: true });
    return ["--cpu-prof", `--cpu-prof-dir=${dir}`];
  },
  log: (message) => console.error(message),
};

// Our service is measured as `npm start` runs it: the build in dist/, under plain Node.
execFileSync(process.execPath, [here("../scripts/build.mjs")], { stdio: ["ignore", "ignore", "inherit"] });

const started = performance.now();
const date = new Date().toISOString();
const sections: Section[] = [];
try {
  for (const scenario of selected) {
    ctx.log(`[bench] ${scenario.id}`);
    const before = loadavg()[0];
    const section = await scenario.run(ctx);
    sections.push({ ...section, load: { before, after: loadavg()[0] } });
  }
} finally {
  if (devnet) await (await devnet).stop();
}

const findingsFile = here("./findings.md");
const report = renderReport({
  machine: describeMachine(),
  date,
  command: ["npm run bench", ...(args.length ? ["--", ...args] : [])].join(" "),
  wallS: (performance.now() - started) / 1000,
  sections,
  goals: evaluateGoals(sections),
  findings: existsSync(findingsFile) ? readFileSync(findingsFile, "utf8") : undefined,
});
if (everything && !profile) {
  writeFileSync(here("./RESULTS.md"), report);
  ctx.log(`[bench] wrote bench/RESULTS.md in ${Math.round((performance.now() - started) / 1000)} s`);
} else {
  console.log(report);
}
