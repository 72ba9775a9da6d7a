import type { EndpointContext } from "../../core/endpoint.ts";
import { chainOf } from "./_chains.ts";
import { priceKey, usdPrices, usdValue, type TokenPrice } from "./_prices.ts";
import { rank, rankingOf, routeAnswer, type Pricing } from "./_answer.ts";
import { raceRoutes } from "./_race.ts";
import type { RouteRequest } from "./_route.ts";
import { quoteTtlSeconds } from "./_settings.ts";

type Ctx = Pick<EndpointContext<unknown>, "upstream" | "signal" | "log" | "now">;

/** Prices of the input and the origin's native coin; a quote does not fail for want of them. */
export async function pricesFor(ctx: Ctx, req: Pick<RouteRequest, "fromChain" | "fromToken">): Promise<Map<string, TokenPrice>> {
  return usdPrices(ctx.upstream("defillama-coins"), [priceKey(req.fromChain, req.fromToken), chainOf(req.fromChain).nativePrice]).catch((error) => {
    ctx.log.warn({ message: String(error?.message ?? error) }, "no USD prices for the swap");
    return new Map<string, TokenPrice>();
  });
}

export function pricingOf(prices: Map<string, TokenPrice>, req: RouteRequest): Pricing {
  return {
    nativeUsd: prices.get(chainOf(req.fromChain).nativePrice)?.usd,
    amountInUsd: usdValue(req.amount, prices.get(priceKey(req.fromChain, req.fromToken)), req.fromToken),
  };
}

/** Races the aggregators and ranks their answers: the whole of /v1/swap, /v1/swap/compare and the widget's quote. */
export async function runSwap(ctx: Ctx, req: RouteRequest, known?: Map<string, TokenPrice>) {
  const [result, prices] = await Promise.all([raceRoutes(ctx, req), known ?? pricesFor(ctx, req)]);
  const pricing = pricingOf(prices, req);
  const ranked = rank(result, pricing);
  const expiresAt = new Date(ctx.now().getTime() + quoteTtlSeconds() * 1000);
  return {
    ranked,
    skipped: result.skipped,
    ...rankingOf(ranked),
    routes: ranked.map((r) => routeAnswer(r, req, pricing, expiresAt)),
  };
}
