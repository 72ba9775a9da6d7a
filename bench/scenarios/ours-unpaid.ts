import { startServer } from "../lib/child.ts";
import { measureForDuration } from "../lib/load.ts";
import type { Scenario } from "./scenario.ts";

/**
 * Our service exactly as `npm start` runs it (core/main.ts: every plugin, memory store, its own devnet and
 * in-process facilitator), started fresh for the scenario, loaded on one path that never reaches a payment.
 */
function oursScenario(id: string, title: string, path: string, expectedStatus: number, note: string): Scenario {
  return {
    id,
    async run(ctx) {
      const server = await startServer("ours", {}, ctx.nodeArgs("ours", id));
      try {
        const row = await measureForDuration({ target: `our service, GET ${path}`, url: server.url + path, expectedStatus });
        return { id, title, notes: [`bench/servers/ours.mjs runs dist/core/main.mjs under plain Node, as \`npm start\` does (built by \`npm run build\` at the start of the bench run). ${note}`], rows: [row] };
      } finally {
        await server.stop();
      }
    },
  };
}

export const oursHealth = oursScenario("health", "2. Our service, free route", "/health", 200, "A free discovery route: the app's middleware and router, no invoke().");
export const ours402 = oursScenario(
  "402",
  "3. Our service, the 402 path",
  "/v1/hash?text=hi",
  402,
  "No payment header: validation passes, the gate answers the cached challenge (v2 `PAYMENT-REQUIRED`, `X-PAYMENT-Requirements`, v1 body). Every answer is a 402, as expected.",
);
export const ours400 = oursScenario(
  "400",
  "4. Our service, the 400 path",
  "/v1/hash?algo=nope",
  400,
  "Invalid input (missing `text`, unknown `algo`): the free 400 listing both field problems, before any payment. Every answer is a 400, as expected.",
);
