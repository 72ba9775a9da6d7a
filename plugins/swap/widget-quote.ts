import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, ServiceError } from "../../core/runtime/errors.ts";
import { disclaimer } from "./_answer.ts";
import { chainOf } from "./_chains.ts";
import { priceKey, usdPrices, usdValue } from "./_prices.ts";
import { raceUpstreams } from "./_race.ts";
import { Alternatives, Comparison, RouteOutput, Skipped, swapInputEntries } from "./_schemas.ts";
import { swapSettings } from "./_settings.ts";
import { runSwap, swapRequest } from "./_swap.ts";
import { widgetExample } from "./_examples.ts";
import { humanFee, humanMinimumInputUsd } from "./_human-fee.ts";

const { feeBps: _agentFee, ...entries } = swapInputEntries;

export default defineEndpoint({
  name: "swap/widget-quote",
  method: "GET",
  path: "/swap/api/quote",
  price: "$0",
  summary: "The swap widget's free quote for humans: the same race, with the human fee (0.15%, $0.25 minimum)",
  description:
    `Free for people using the /swap page, limited per visitor. The input's USD value comes from DefiLlama's current price; the fee is ` +
    `max(15 bps, $0.25 of the input) in whole basis points, so swaps worth less than $${humanMinimumInputUsd} are refused.`,
  input: v.object(entries),
  output: v.object({
    ...RouteOutput,
    alternatives: Alternatives,
    comparison: Comparison,
    skipped: Skipped,
    humanFee: v.object({ rateBps: v.number(), minimumUsd: v.number(), amountInUsd: v.number(), feeBps: v.number() }),
    disclaimer: v.string(),
  }),
  example: widgetExample,
  upstreams: [...raceUpstreams, "defillama-coins"],
  settings: swapSettings,
  async handler(ctx) {
    const { input, store, clientIp, now } = ctx;
    const hour = Math.floor(now().getTime() / 3_600_000);
    const used = await store.increment(`swap:widget:${clientIp}:${hour}`, 1, 3_600_000);
    if (used > ctx.settings.widgetQuotesPerHour) {
      const retryAfter = Math.max(1, Math.ceil(((hour + 1) * 3_600_000 - now().getTime()) / 1000));
      throw new ServiceError(
        429,
        "rate_limited",
        "Too many widget quotes from this address; try again later",
        { retryAfterSeconds: retryAfter },
        { "retry-after": String(retryAfter) },
      );
    }
    const prices = await usdPrices(ctx.upstream("defillama-coins"), [
      priceKey(input.fromChain, input.fromToken),
      chainOf(input.fromChain).nativePrice,
    ]);
    const amountInUsd = usdValue(input.amount, prices.get(priceKey(input.fromChain, input.fromToken)), input.fromToken);
    if (amountInUsd === undefined)
      throw badRequest("No USD price for this token, so the widget cannot price its fee", {
        issues: [{ field: "fromToken", message: "no USD price known" }],
      });
    if (amountInUsd < humanMinimumInputUsd) {
      throw badRequest(`The widget takes swaps worth at least $${humanMinimumInputUsd}`, {
        issues: [{ field: "amount", message: `worth about $${amountInUsd.toFixed(2)}` }],
      });
    }
    const req = swapRequest(
      input,
      Math.max(humanFee.rateBps, Math.ceil((humanFee.minimumUsd / amountInUsd) * 10_000)),
      ctx.settings,
    );
    const { routes, alternatives, comparison, skipped } = await runSwap(ctx, req, prices);
    return {
      ...routes[0],
      alternatives,
      comparison,
      skipped,
      humanFee: { ...humanFee, amountInUsd: Math.round(amountInUsd * 100) / 100, feeBps: req.feeBps },
      disclaimer,
    };
  },
});
