import type { Upstream } from "../../core/endpoint.ts";
import { notFound, ServiceError, upstreamFailed } from "../../core/runtime/errors.ts";

/** Binance USDⓈ-M futures public market data (fapi). Answers 451 to US addresses. */
export const BINANCE = "binance-futures";

export interface BinancePremiumIndex {
  symbol: string;
  markPrice: string;
  indexPrice: string;
  lastFundingRate: string;
  nextFundingTime: number;
  time: number;
}

/** GET /fapi/v1/premiumIndex: mark price and current funding of every perpetual, or of one. */
export async function binancePremiumIndex(api: Upstream, symbol?: string): Promise<BinancePremiumIndex[]> {
  const body = await bySymbol(symbol, api.json<BinancePremiumIndex | BinancePremiumIndex[]>("/fapi/v1/premiumIndex", { query: { symbol } }));
  const list = Array.isArray(body) ? body : [body];
  if (!list.every((x) => typeof x?.symbol === "string" && typeof x.lastFundingRate === "string")) throw upstreamFailed(BINANCE, "Binance premiumIndex changed shape");
  return list;
}

/** GET /fapi/v1/fundingInfo: only the symbols whose funding interval or caps were adjusted (others are 8 h). */
export async function binanceFundingIntervals(api: Upstream): Promise<Map<string, number>> {
  const body = await api.json<{ symbol: string; fundingIntervalHours: number }[]>("/fapi/v1/fundingInfo");
  if (!Array.isArray(body)) throw upstreamFailed(BINANCE, "Binance fundingInfo changed shape");
  return new Map(body.map((x) => [x.symbol, x.fundingIntervalHours]));
}

/** Binance answers an unknown symbol with 400 {code: -1121, msg: "Invalid symbol."}. */
async function bySymbol<T>(symbol: string | undefined, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (symbol && error instanceof ServiceError && / answered 400$/.test(error.message)) throw notFound(`Binance lists no ${symbol}`);
    throw error;
  }
}

/** GET /fapi/v1/openInterest: open interest of one perpetual, in contracts (base units). */
export async function binanceOpenInterest(api: Upstream, symbol: string): Promise<{ symbol: string; openInterest: string; time: number }> {
  const body = await bySymbol(symbol, api.json<{ symbol: string; openInterest: string; time: number }>("/fapi/v1/openInterest", { query: { symbol } }));
  if (typeof body?.openInterest !== "string") throw upstreamFailed(BINANCE, "Binance openInterest changed shape");
  return body;
}

export interface FundingPrint {
  time: number;
  rate: string;
}

/** GET /fapi/v1/fundingRate: settled funding prints between two times (up to 1000, oldest first). */
export async function binanceFundingHistory(api: Upstream, symbol: string, startTime: number, endTime: number): Promise<FundingPrint[]> {
  const body = await bySymbol(symbol, api.json<{ symbol: string; fundingTime: number; fundingRate: string }[]>("/fapi/v1/fundingRate", {
    query: { symbol, startTime, endTime, limit: 1000 },
  }));
  if (!Array.isArray(body)) throw upstreamFailed(BINANCE, "Binance fundingRate changed shape");
  return body.map((x) => ({ time: x.fundingTime, rate: x.fundingRate }));
}
