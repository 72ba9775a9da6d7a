import type { Upstream } from "../../core/endpoint.ts";
import { notFound, upstreamFailed } from "../../core/runtime/errors.ts";
import type { FundingPrint } from "./_binance.ts";

export const BYBIT = "bybit";

interface Envelope<T> {
  retCode: number;
  retMsg: string;
  result: T;
}

export interface BybitTicker {
  symbol: string;
  markPrice: string;
  indexPrice: string;
  fundingRate: string;
  nextFundingTime: string;
  openInterest: string;
  openInterestValue: string;
  fundingIntervalHour?: string;
}

async function v5<T>(api: Upstream, path: string, query: Record<string, string | number | undefined>): Promise<T> {
  const body = await api.json<Envelope<T>>(path, { query });
  if (body?.retCode === 10001) throw notFound(`Bybit: ${body.retMsg}`);
  if (body?.retCode !== 0 || !body.result) throw upstreamFailed(BYBIT, `Bybit answered retCode ${body?.retCode}: ${body?.retMsg}`);
  return body.result;
}

/** GET /v5/market/tickers?category=linear: mark price, funding and open interest of every linear perpetual, or of one. */
export async function bybitTickers(api: Upstream, symbol?: string): Promise<BybitTicker[]> {
  const result = await v5<{ list: BybitTicker[] }>(api, "/v5/market/tickers", { category: "linear", symbol });
  if (!Array.isArray(result.list)) throw upstreamFailed(BYBIT, "Bybit tickers changed shape");
  return result.list;
}

/** GET /v5/market/funding/history: newest first, 200 a page; pages back by endTime until startTime. */
export async function bybitFundingHistory(api: Upstream, symbol: string, startTime: number, endTime: number): Promise<FundingPrint[]> {
  const prints: FundingPrint[] = [];
  let end = endTime;
  for (let page = 0; page < 10; page++) {
    const result = await v5<{ list: { fundingRate: string; fundingRateTimestamp: string }[] }>(api, "/v5/market/funding/history", {
      category: "linear", symbol, startTime, endTime: end, limit: 200,
    });
    const list = result.list ?? [];
    prints.push(...list.map((x) => ({ time: Number(x.fundingRateTimestamp), rate: x.fundingRate })));
    if (list.length < 200) break;
    end = Number(list[list.length - 1].fundingRateTimestamp) - 1;
  }
  return prints.sort((a, b) => a.time - b.time);
}
