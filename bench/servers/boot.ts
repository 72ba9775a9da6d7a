import pino from "pino";
import { readConfig } from "../../core/runtime/config.ts";
import { createService } from "../../core/runtime/server.ts";
import { createClosedGate } from "../../core/x402/gate.ts";
import type { PaymentOption } from "../../core/x402/requirements.ts";

/**
 * One cold boot, then exit: builds the service (PLUGINS from the environment, all families when unset)
 * with a closed gate and no jobs, and prints one JSON line: time to ready from process start (tsx's
 * loader included) with the process's CPU time by then
 * (steadier than wall time on a shared machine), the createService part alone, endpoints mounted, and the resident set after a full
 * GC (run with --expose-gc). It never listens: what is measured is loading, not serving.
 */
const option: PaymentOption = {
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
  payments: async () => ({ gate: createClosedGate([option], config.baseUrl) }),
});
const readyMs = performance.now();
const cpu = process.cpuUsage();
const gc = (globalThis as { gc?: () => void }).gc;
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
