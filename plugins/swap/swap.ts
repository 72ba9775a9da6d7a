import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { disclaimer } from "./_answer.ts";
import { raceUpstreams } from "./_race.ts";
import { Alternatives, Comparison, parties, RouteOutput, Skipped, SwapInput } from "./_schemas.ts";
import { feeRecipient } from "./_settings.ts";
import { runSwap } from "./_swap.ts";
import { swapExample } from "./_examples.ts";

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
  output: v.object({ ...RouteOutput, alternatives: Alternatives, comparison: Comparison, skipped: Skipped, disclaimer: v.string() }),
  example: swapExample,
  upstreams: [...raceUpstreams, "defillama-coins"],
  async handler(ctx) {
    const { input } = ctx;
    const recipientOfFee = feeRecipient();
    const { routes, alternatives, comparison, skipped } = await runSwap(ctx, {
      ...input,
      ...parties(input),
      fromToken: input.fromToken as `0x${string}`,
      toToken: input.toToken as `0x${string}`,
      feeBps: recipientOfFee ? input.feeBps : 0,
      feeRecipient: recipientOfFee,
    });
    return { ...routes[0], alternatives, comparison, skipped, disclaimer };
  },
});
