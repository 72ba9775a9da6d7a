import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { disclaimer } from "./_answer.ts";
import { raceUpstreams } from "./_race.ts";
import { Alternatives, Comparison, RouteOutput, Skipped, SwapInput } from "./_schemas.ts";
import { runSwap, swapRequest } from "./_swap.ts";
import { swapExample } from "./_examples.ts";
import { swapSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "swap",
  method: "GET",
  price: "$0.03",
  mcp: true,
  summary: "Best swap or bridge route across Relay, LI.FI, Across, deBridge and KyberSwap, with ready-to-sign calldata",
  description:
    "Races the aggregators that serve the route (cross-chain: Relay, LI.FI, Across, deBridge; same-chain: Relay, LI.FI, KyberSwap) " +
    "under a deadline and returns the best amount out net of all fees, its transaction and the ranked alternatives. Non-custodial: you sign and send. " +
    "The integrator fee (feeBps, default 10) is sent to each aggregator in its own unit and reported in fees.integrator.",
  input: SwapInput,
  output: v.object({
    ...RouteOutput,
    alternatives: Alternatives,
    comparison: Comparison,
    skipped: Skipped,
    disclaimer: v.string(),
  }),
  example: swapExample,
  upstreams: [...raceUpstreams, "defillama-coins"],
  settings: swapSettings,
  async handler(ctx) {
    const { routes, alternatives, comparison, skipped } = await runSwap(
      ctx,
      swapRequest(ctx.input, ctx.input.feeBps, ctx.settings),
    );
    return { ...routes[0], alternatives, comparison, skipped, disclaimer };
  },
});
