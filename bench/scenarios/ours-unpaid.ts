import { startServer } from "../lib/child.ts";
import { measureForDuration } from "../lib/load.ts";
import type { Scenario } from "./scenario.ts";

/**
 * Our service exactly as `npm start` runs it (core/main.ts: every plugin, memory store, its own devnet and
 * in-process facilitator), started fresh for the scenario, loaded on one path that never reaches a payment.
 */
function oursScenario(
  id: string,
  title: string,
  path: string,
  expectedStatus: number,
  note: string,
  withCeiling = false,
): Scenario {
  return {
    id,
    async run(ctx) {
      const server = await startServer("ours", {}, ctx.nodeArgs("ours", id));
      const notes = [
        `bench/servers/ours.mjs runs dist/core/main.mjs under plain Node, as \`npm start\` does (built by \`npm run build\` at the start of the bench run). ${note}`,
      ];
      try {
        const row = await measureForDuration({
          target: `our service, GET ${path}`,
          url: server.url + path,
          expectedStatus,
        });
        if (!withCeiling) return { id, title, notes, rows: [row] };
        const rows = [row];
        const ceiling = await startServer(
          "h3-constant",
          { CONSTANT_RESPONSE: await capture(server.url + path) },
          ctx.nodeArgs("h3-constant", id),
        );
        try {
          rows.push(
            await measureForDuration({
              target: "h3 answering the same 402 as a constant (the ceiling)",
              url: `${ceiling.url}/v1/hash`,
              expectedStatus,
            }),
          );
        } finally {
          await ceiling.stop();
        }
        notes.push(
          "The second row is bench/servers/h3-constant.ts: h3 answering our 402's exact status, headers and body (captured from the run above) as a " +
            "constant, with only a fresh request id, no validation, gate or log. It is what any route answering these bytes could reach on this machine.",
        );
        return { id, title, notes, rows };
      } finally {
        await server.stop();
      }
    },
  };
}

/** One answer of our service, as the constant server replays it (bench/servers/h3-constant.ts): status, headers (without the per-connection ones) and body. */
export async function capture(url: string): Promise<string> {
  const res = await fetch(url);
  const perAnswer = new Set(["date", "connection", "keep-alive", "content-length", "x-request-id"]);
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => perAnswer.has(name) || headers.push([name, value]));
  const body = await res.text();
  return JSON.stringify({
    status: res.status,
    headers: [...headers, ["content-length", String(Buffer.byteLength(body))]],
    body,
  });
}

export const oursHealth = oursScenario(
  "health",
  "2. Our service, free route",
  "/health",
  200,
  "A free discovery route: the app's middleware and router, no invoke().",
);
export const ours402 = oursScenario(
  "402",
  "3. Our service, the 402 path",
  "/v1/hash?text=hi",
  402,
  "No payment header: validation passes, the gate answers the cached challenge (v2 `PAYMENT-REQUIRED`, `X-PAYMENT-Requirements`, v1 body). Every answer is a 402, as expected.",
  true,
);
export const ours400 = oursScenario(
  "400",
  "4. Our service, the 400 path",
  "/v1/hash?algo=nope",
  400,
  "Invalid input (missing `text`, unknown `algo`): the free 400 listing both field problems, before any payment. Every answer is a 400, as expected.",
);
