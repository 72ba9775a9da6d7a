import { startServer } from "../lib/child.ts";
import { measureForDuration, type LoadRow } from "../lib/load.ts";
import type { Scenario } from "./scenario.ts";

const ROUNDS = 3;
const path = "/v1/hash?text=hi";

/**
 * @x402/hono's 402 path against ours, measured in alternating pairs. Other work on this machine moves
 * req/s by 10-20% from one minute to the next; a ratio of two runs minutes apart measured that drift as
 * often as the servers. Each round loads the two back to back (the first of the pair alternates), and the
 * goal reads the median of the rounds' ratios.
 */
export const hono402: Scenario = {
  id: "hono-402",
  async run(ctx) {
    const hono = await startServer(
      "hono-x402",
      { REFERENCE_MODE: "unpaid-only" },
      ctx.nodeArgs("hono-x402", "hono-402"),
    );
    const ours = await startServer("ours", {}, ctx.nodeArgs("ours", "hono-402")).catch(async (error) => {
      await hono.stop();
      throw error;
    });
    try {
      const rows: LoadRow[] = [];
      const ratios: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const measureOurs = () =>
          measureForDuration({
            target: `round ${round}: our service, GET ${path}`,
            url: ours.url + path,
            expectedStatus: 402,
          });
        const measureHono = () =>
          measureForDuration({
            target: `round ${round}: @x402/hono 2.27.0, GET ${path}`,
            url: hono.url + path,
            expectedStatus: 402,
          });
        let ourRow: LoadRow, honoRow: LoadRow;
        if (round % 2) {
          ourRow = await measureOurs();
          honoRow = await measureHono();
        } else {
          honoRow = await measureHono();
          ourRow = await measureOurs();
        }
        rows.push(ourRow, honoRow);
        ratios.push(ourRow.reqPerSec / honoRow.reqPerSec);
      }
      const median = [...ratios].sort((x, y) => x - y)[Math.floor(ROUNDS / 2)];
      return {
        id: "hono-402",
        title: "5. Reference: @x402/hono 402 path, alternating with ours",
        notes: [
          'bench/servers/hono-x402.ts: hono 4.13.19 on @hono/node-server 2.1.8, `paymentMiddleware` from @x402/hono 2.27.0 guarding `GET /v1/hash` at "$0.001" on eip155:84532, an `x402ResourceServer` over the in-process `x402Facilitator` (registerExactEvmScheme, viem signer). On the 402 path the facilitator never reaches a chain. Every answer is a 402 (header `PAYMENT-REQUIRED`, body `{}`), as expected.',
          `Both servers run side by side (ours as in section 3); each of ${ROUNDS} rounds loads them back to back, the first of the pair alternating, so both see the same minute of the machine. ` +
            `Ratios per round: ${ratios.map((r) => `${r.toFixed(2)}x`).join(", ")}; median ${median.toFixed(2)}x.`,
        ],
        rows,
        figures: { oursOverHonoMedian: median },
      };
    } finally {
      await Promise.all([ours.stop(), hono.stop()]);
    }
  },
};
