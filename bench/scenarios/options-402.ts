import { startServer } from "../lib/child.ts";
import { measureForDuration, type LoadRow } from "../lib/load.ts";
import { atFixedRate, FIXED_RATE } from "./cpu-per-request.ts";
import type { Scenario } from "./scenario.ts";

const ROUNDS = 3;
const path = "/v1/hash?text=hi";
export const FIVE_OPTIONS = "base,polygon,arbitrum,optimism,avalanche";

/** A configured service (no devnet): remote facilitator never reached on the 402 path. */
export const configured = (options: string) => ({
  X402_OPTIONS: options,
  PAY_TO: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
  FACILITATOR_URL: "http://127.0.0.1:9/",
  SERVICE_SIGNING_KEY: `0x${"5e".repeat(32)}`,
});

/**
 * The 402 path with five payment options offered against one (issue 27): the challenge is built once per
 * route, so its size, not the number of options, is what a request pays for. Alternating rounds, as
 * hono-402 does, and the goal reads the median ratio.
 */
export const options402: Scenario = {
  id: "402-options",
  async run(ctx) {
    const one = await startServer("ours", configured("base"), ctx.nodeArgs("ours", "402-options-1"));
    const five = await startServer("ours", configured(FIVE_OPTIONS), ctx.nodeArgs("ours", "402-options-5")).catch(
      async (error) => {
        await one.stop();
        throw error;
      },
    );
    try {
      const sizes = await Promise.all(
        [one, five].map(async (s) => {
          const res = await fetch(s.url + path);
          const body = await res.text();
          return { header: res.headers.get("payment-required")!.length, body: body.length, status: res.status };
        }),
      );
      if (sizes.some((s) => s.status !== 402))
        throw new Error(`expected 402s, got ${sizes.map((s) => s.status).join(", ")}`);
      const rows: LoadRow[] = [];
      const ratios: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const measureOne = () =>
          measureForDuration({
            target: `round ${round}: one option (base), GET ${path}`,
            url: one.url + path,
            expectedStatus: 402,
          });
        const measureFive = () =>
          measureForDuration({
            target: `round ${round}: five options (${FIVE_OPTIONS}), GET ${path}`,
            url: five.url + path,
            expectedStatus: 402,
          });
        let oneRow: LoadRow, fiveRow: LoadRow;
        if (round % 2) {
          oneRow = await measureOne();
          fiveRow = await measureFive();
        } else {
          fiveRow = await measureFive();
          oneRow = await measureOne();
        }
        rows.push(oneRow, fiveRow);
        ratios.push(fiveRow.reqPerSec / oneRow.reqPerSec);
      }
      const median = [...ratios].sort((x, y) => x - y)[Math.floor(ROUNDS / 2)];
      // CPU per answer at one fixed rate: what the server spends, whatever the load generator on the same cores can follow.
      const cpu = { one: await atFixedRate("one", one, path), five: await atFixedRate("five", five, path) };
      return {
        id: "402-options",
        title: "The 402 path with five payment options against one",
        notes: [
          "Two copies of our service as `npm start` runs it, configured instead of on the devnet: `X402_OPTIONS=base` and " +
            `\`X402_OPTIONS=${FIVE_OPTIONS}\`, one \`PAY_TO\`, a remote facilitator the 402 path never reaches.`,
          `PAYMENT-REQUIRED header ${sizes[0].header} vs ${sizes[1].header} characters, v1 body ${sizes[0].body} vs ${sizes[1].body} bytes (v1 lists base, polygon and avalanche; Arbitrum and Optimism have no v1 name).`,
          `${ROUNDS} rounds back to back, the first of the pair alternating. Five over one per round: ${ratios.map((r) => `${(r * 100).toFixed(1)}%`).join(", ")}; median ${(median * 100).toFixed(1)}%.`,
          `Server CPU per answer at a fixed ${FIXED_RATE} req/s (every thread, from /proc): one option ${cpu.one.cpuUsPerRequest.toFixed(1)} µs, five options ${cpu.five.cpuUsPerRequest.toFixed(1)} µs ` +
            `(${((cpu.five.cpuUsPerRequest / cpu.one.cpuUsPerRequest - 1) * 100).toFixed(1)}%).`,
        ],
        rows,
        figures: { fiveOverOneMedian: median, cpuUsOne: cpu.one.cpuUsPerRequest, cpuUsFive: cpu.five.cpuUsPerRequest },
      };
    } finally {
      await Promise.all([one.stop(), five.stop()]);
    }
  },
};
