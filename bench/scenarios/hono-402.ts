import { startServer } from "../lib/child.ts";
import { measureForDuration } from "../lib/load.ts";
import type { Scenario } from "./scenario.ts";

export const hono402: Scenario = {
  id: "hono-402",
  async run(ctx) {
    const server = await startServer("hono-x402", { REFERENCE_MODE: "unpaid-only" }, ctx.nodeArgs("hono-x402", "hono-402"));
    try {
      const row = await measureForDuration({ target: "@x402/hono 2.27.0, GET /v1/hash?text=hi", url: `${server.url}/v1/hash?text=hi`, expectedStatus: 402 });
      return {
        id: "hono-402",
        title: "5. Reference: @x402/hono 402 path",
        notes: [
          "bench/servers/hono-x402.ts: hono 4.13.19 on @hono/node-server 2.1.8, `paymentMiddleware` from @x402/hono 2.27.0 guarding `GET /v1/hash` at \"$0.001\" on eip155:84532, an `x402ResourceServer` over the in-process `x402Facilitator` (registerExactEvmScheme, viem signer). On the 402 path the facilitator never reaches a chain. Every answer is a 402 (header `PAYMENT-REQUIRED`, body `{}`), as expected.",
        ],
        rows: [row],
      };
    } finally {
      await server.stop();
    }
  },
};
