/**
 * One cold boot, then exit: builds the service (PLUGINS from the environment, all families when unset)
 * with a closed gate and no jobs, and prints one JSON line: time to ready from process start (the module
 * loading included) with the process's CPU time by then (steadier than wall time on a shared machine), the
 * createService part alone, endpoints mounted, and the resident set after a full GC (run with --expose-gc).
 * It never listens: what is measured is loading, not serving.
 *
 * BOOT_FROM=dist (the default) loads the build `npm start` runs, under plain Node; BOOT_FROM=sources loads
 * the TypeScript sources, which needs `--import tsx` (how `npm run dev` and the tests run).
 */
const [dir, ext] = process.env.BOOT_FROM === "sources" ? ["../../core/", ".ts"] : ["../../dist/core/", ".mjs"];
const load = (path) => import(new URL(`${dir}${path}${ext}`, import.meta.url).href);
const [{ default: pino }, { readConfig }, { createService }, { createClosedGate }, { x402Offers }] = await Promise.all([
  import("pino"),
  load("runtime/config"),
  load("runtime/server"),
  load("payment/gate"),
  load("x402/offers"),
]);

const option = {
  network: "eip155:84532",
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
  decimals: 6,
  extra: { name: "USDC", version: "2" },
  maxTimeoutSeconds: 300,
};

const imported = performance.now();
const config = readConfig({ ...process.env, JOBS: "off", LOG_LEVEL: "silent", BASE_URL: "http://127.0.0.1:4021" });
const service = await createService({
  config,
  log: pino({ level: "silent" }),
  payments: async () => ({ gate: createClosedGate(x402Offers([option], config.baseUrl)) }),
});
const readyMs = performance.now();
const cpu = process.cpuUsage();
const gc = globalThis.gc;
gc?.();
const memory = process.memoryUsage();
console.log(
  JSON.stringify({
    readyMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    createServiceMs: readyMs - imported,
    endpoints: service.runtime.endpoints.length,
    rssMB: memory.rss / 2 ** 20,
    heapUsedMB: memory.heapUsed / 2 ** 20,
    gcExposed: Boolean(gc),
  }),
);
await service.close();
process.exit(0);
