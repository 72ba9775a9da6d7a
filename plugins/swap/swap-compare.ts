import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { disclaimer } from "./_answer.ts";
import { raceUpstreams } from "./_race.ts";
import { Comparison, RouteOutput, Skipped, SwapInput } from "./_schemas.ts";
import { runSwap, swapRequest } from "./_swap.ts";
import { compareExample } from "./_examples.ts";
import { swapSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "swap/compare",
  method: "GET",
  price: "$0.03",
  summary:
    "Every live swap aggregator's route side by side, best net amount first, each with its full quote and calldata",
  description:
    "The same race as /v1/swap; instead of one winner it returns every route that answered before the deadline, ranked, and which aggregators did not answer.",
  input: SwapInput,
  output: v.object({
    comparison: Comparison,
    quotes: v.array(v.object({ rank: v.number(), winner: v.boolean(), ...RouteOutput })),
    skipped: Skipped,
    disclaimer: v.string(),
  }),
  example: compareExample,
  upstreams: [...raceUpstreams, "defillama-coins"],
  settings: swapSettings,
  async handler(ctx) {
    const { routes, comparison, skipped } = await runSwap(ctx, swapRequest(ctx.input, ctx.input.feeBps, ctx.settings));
    return {
      comparison,
      quotes: routes.map((route, i) => ({ rank: i + 1, winner: i === 0, ...route })),
      skipped,
      disclaimer,
    };
  },
});
