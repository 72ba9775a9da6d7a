import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Scenario } from "./scenario.ts";

export const BOOTS = 5;

const child = fileURLToPath(new URL("../servers/boot.mjs", import.meta.url));

/** What bench/servers/boot.mjs prints once the service is built. */
interface Boot {
  readyMs: number;
  cpuMs: number;
  createServiceMs: number;
  endpoints: number;
  rssMB: number;
  heapUsedMB: number;
}

/** One cold boot in a fresh process (`node --expose-gc`, with `--import tsx` for the sources), with its own plugin selection. */
function bootOnce(env: Record<string, string>, nodeArgs: string[]): Promise<Boot> {
  const loader = env.BOOT_FROM === "sources" ? ["--import", "tsx"] : [];
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...nodeArgs, "--expose-gc", ...loader, child], {
      env: { ...process.env, PLUGINS: "", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (chunk) => (out += chunk));
    proc.once("error", reject);
    proc.once("exit", (code) => {
      const line = out.trim().split("\n").pop() ?? "";
      if (code === 0 && line.startsWith("{")) resolve(JSON.parse(line) as Boot);
      else reject(new Error(`boot child exited with ${code}: ${out}`));
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs: number[]) => Math.max(...xs);

function summarize(boots: Boot[]) {
  const of = (key: keyof Boot) => boots.map((b) => b[key]);
  return {
    endpoints: boots[0].endpoints,
    readyMs: { median: median(of("readyMs")), max: max(of("readyMs")) },
    cpuMs: { median: median(of("cpuMs")), max: max(of("cpuMs")) },
    rssMB: { median: median(of("rssMB")), max: max(of("rssMB")) },
    heapUsedMB: { median: median(of("heapUsedMB")), max: max(of("heapUsedMB")) },
  };
}

export const boot: Scenario = {
  id: "boot",
  async run(ctx) {
    const runs: Array<{ label: string; env: Record<string, string> }> = [
      { label: "every plugin, `npm start` (dist/, plain Node)", env: {} },
      { label: "`PLUGINS=converters`, `npm start`", env: { PLUGINS: "converters" } },
      { label: "every plugin, the sources under tsx (`npm run dev`, the tests)", env: { BOOT_FROM: "sources" } },
    ];
    const results = [];
    for (const run of runs) {
      const boots: Boot[] = [];
      // One after another: parallel boots would compete for the same two cores.
      for (let i = 0; i < BOOTS; i++) boots.push(await bootOnce(run.env, ctx.nodeArgs(`boot-${i}`, "boot")));
      results.push({ ...run, ...summarize(boots) });
    }
    const all = results[0];
    const f = (x: number) => x.toFixed(0);
    return {
      id: "boot",
      title: "9. Boot time and memory",
      notes: [
        `bench/servers/boot.mjs in a fresh process, ${BOOTS} times per row, one after another: readConfig + createService ` +
          "with a closed payment gate (createClosedGate), `JOBS=off`, memory store, no listener. The first rows load the build in dist/ (`npm run build`, run " +
          "at the start of the bench) under `node --expose-gc`, as `npm start` runs the service; the last row loads the TypeScript sources with `--import tsx`. " +
          "Time to ready is `performance.now()` when createService returns (from process start, module loading included); CPU is the process's user + system " +
          "time by then (all threads); RSS and heap are read after a full `gc()`. tsx's transform cache is warm (earlier runs).",
      ],
      rows: [],
      table: [
        "| plugins | endpoints | time to ready, median / max (ms) | CPU, median / max (ms) | RSS after GC, median / max (MB) | heap used, median / max (MB) |",
        "|---|---:|---:|---:|---:|---:|",
        ...results.map(
          (r) =>
            `| ${r.label} | ${r.endpoints} | ${f(r.readyMs.median)} / ${f(r.readyMs.max)} | ${f(r.cpuMs.median)} / ${f(r.cpuMs.max)} | ${f(r.rssMB.median)} / ${f(r.rssMB.max)} | ${f(r.heapUsedMB.median)} / ${f(r.heapUsedMB.max)} |`,
        ),
      ],
      figures: { allReadyMs: all.readyMs.median, allRssMB: all.rssMB.median, allEndpoints: all.endpoints },
    };
  },
};
