import type { EndpointContext } from "../../core/endpoint.ts";
import { chainOf } from "./_chains.ts";
import { priceKey, usdPrices, usdValue, type TokenPrice } from "./_prices.ts";
import { rank, rankingOf, routeAnswer, type Pricing } from "./_answer.ts";
import { raceRoutes } from "./_race.ts";
import type { RouteRequest } from "./_route.ts";
import { parties } from "./_schemas.ts";
import type { SwapSettings } from "./_settings.ts";

type Ctx = Pick<EndpointContext<unknown, string, SwapSettings>, "upstream" | "signal" | "log" | "now" | "settings">;

/** Prices of the input and the origin's native coin; a quote does not fail for want of them. */
async function pricesFor(
  ctx: Ctx,
  req: Pick<RouteRequest, "fromChain" | "fromToken">,
): Promise<Map<string, TokenPrice>> {
  return usdPrices(ctx.upstream("defillama-coins"), [
    priceKey(req.fromChain, req.fromToken),
    chainOf(req.fromChain).nativePrice,
  ]).catch((error) => {
    ctx.log.warn({ message: String(error?.message ?? error) }, "no USD prices for the swap");
    return new Map<string, TokenPrice>();
  });
}

function pricingOf(prices: Map<string, TokenPrice>, req: RouteRequest): Pricing {
  return {
    nativeUsd: prices.get(chainOf(req.fromChain).nativePrice)?.usd,
    amountInUsd: usdValue(req.amount, prices.get(priceKey(req.fromChain, req.fromToken)), req.fromToken),
  };
}

type SwapParams = Omit<
  RouteRequest,
  | "depositor"
  | "recipient"
  | "feeBps"
  | "feeRecipient"
  | "lifiIntegrator"
  | "lifiFeeWallet"
  | "acrossIntegratorId"
  | "debridgeReferralCode"
  | "fromToken"
  | "toToken"
> & {
  fromToken: string;
  toToken: string;
  depositor?: string;
  recipient?: string;
};

/** The race request for /v1/swap's parameters: parties resolved, and the fee only when someone is configured to receive it. */
export function swapRequest(input: SwapParams, feeBps: number, settings: SwapSettings): RouteRequest {
  const recipientOfFee = settings.feeRecipient;
  return {
    ...input,
    ...parties(input),
    fromToken: input.fromToken as `0x${string}`,
    toToken: input.toToken as `0x${string}`,
    feeBps: recipientOfFee ? feeBps : 0,
    feeRecipient: recipientOfFee,
    lifiIntegrator: settings.lifiIntegrator,
    lifiFeeWallet: settings.lifiFeeWallet,
    acrossIntegratorId: settings.acrossIntegratorId,
    debridgeReferralCode: settings.debridgeReferralCode,
  };
}

/** Races the aggregators and ranks their answers: the whole of /v1/swap, /v1/swap/compare and the widget's quote. */
export async function runSwap(ctx: Ctx, req: RouteRequest, known?: Map<string, TokenPrice>) {
  const [result, prices] = await Promise.all([raceRoutes(ctx, req), known ?? pricesFor(ctx, req)]);
  const pricing = pricingOf(prices, req);
  const ranked = rank(result, req, pricing);
  const expiresAt = new Date(ctx.now().getTime() + ctx.settings.quoteTtlSeconds * 1000);
  return {
    skipped: result.skipped,
    ...rankingOf(ranked),
    routes: ranked.map((r) => routeAnswer(r, req, pricing, expiresAt)),
  };
}
