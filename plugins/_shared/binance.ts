import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound, ServiceError } from "../../core/runtime/errors.ts";
import { pagedFunding, type FundingPrint } from "./funding.ts";

/** Binance USDⓈ-M futures public market data (fapi). Answers 451 to US addresses. */
export const BINANCE = "binance-futures";

/** Milliseconds since the epoch, as Binance writes times. */
const Millis = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(8.64e15));
/** What the code reads of Binance's answers. */
const BinancePremiumIndex = v.object({
  symbol: v.string(),
  markPrice: v.string(),
  indexPrice: v.string(),
  lastFundingRate: v.string(),
  nextFundingTime: Millis,
  time: Millis,
});
export type BinancePremiumIndex = v.InferOutput<typeof BinancePremiumIndex>;
const FundingInfo = v.array(v.object({ symbol: v.string(), fundingIntervalHours: v.number() }));
const OpenInterest = v.object({ symbol: v.string(), openInterest: v.string(), time: Millis });
const FundingRates = v.array(v.object({ fundingTime: Millis, fundingRate: v.string() }));

/** GET /fapi/v1/premiumIndex: mark price and current funding of every perpetual, or of one. */
export async function binancePremiumIndex(api: Upstream, symbol?: string): Promise<BinancePremiumIndex[]> {
  const body = await bySymbol(
    symbol,
    api.json("/fapi/v1/premiumIndex", v.union([v.array(BinancePremiumIndex), BinancePremiumIndex]), {
      query: { symbol },
    }),
  );
  return Array.isArray(body) ? body : [body];
}

/** GET /fapi/v1/fundingInfo: only the symbols whose funding interval or caps were adjusted (others are 8 h). */
export async function binanceFundingIntervals(api: Upstream): Promise<Map<string, number>> {
  const body = await api.json("/fapi/v1/fundingInfo", FundingInfo);
  return new Map(body.map((x) => [x.symbol, x.fundingIntervalHours]));
}

/** Binance answers an unknown symbol with 400 {code: -1121, msg: "Invalid symbol."}. */
async function bySymbol<T>(symbol: string | undefined, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (symbol && error instanceof ServiceError && / answered 400$/.test(error.message))
      throw notFound(`Binance lists no ${symbol}`);
    throw error;
  }
}

/** GET /fapi/v1/openInterest: open interest of one perpetual, in contracts (base units). */
export async function binanceOpenInterest(
  api: Upstream,
  symbol: string,
): Promise<{ symbol: string; openInterest: string; time: number }> {
  return bySymbol(symbol, api.json("/fapi/v1/openInterest", OpenInterest, { query: { symbol } }));
}

/** Binance answers at most 1,000 prints a request; 90 days of a 1 h contract is 2,160. */
const FUNDING_PAGE = 1000;
const MAX_FUNDING_PAGES = 20;

/** GET /fapi/v1/fundingRate: every settled funding print between two times, oldest first, a page of 1,000 at a time. */
export async function binanceFundingHistory(
  api: Upstream,
  symbol: string,
  startTime: number,
  endTime: number,
): Promise<FundingPrint[]> {
  return pagedFunding(
    { size: FUNDING_PAGE, maxPages: MAX_FUNDING_PAGES },
    async (from = startTime) => {
      const query = { symbol, startTime: from, endTime, limit: FUNDING_PAGE };
      const body = await bySymbol(symbol, api.json("/fapi/v1/fundingRate", FundingRates, { query }));
      return body.map((x) => ({ time: x.fundingTime, rate: x.fundingRate }));
    },
    (last) => (last.time < endTime ? last.time + 1 : undefined),
  );
}
