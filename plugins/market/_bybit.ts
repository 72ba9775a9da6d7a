import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound, upstreamFailed, checkUpstream } from "../../core/runtime/errors.ts";
import { pagedFunding, type FundingPrint } from "../_shared/funding.ts";

export const BYBIT = "bybit";

/** Bybit v5's envelope: `retCode` 0 is success; `result` is checked against the caller's shape then. */
const Envelope = v.object({ retCode: v.number(), retMsg: v.string(), result: v.unknown() });
/** Milliseconds since the epoch, as Bybit writes times. */
const Millis = v.pipe(v.string(), v.regex(/^\d{1,15}$/, "not unix milliseconds"));

const BybitTicker = v.object({
  symbol: v.string(),
  markPrice: v.string(),
  indexPrice: v.string(),
  fundingRate: v.string(),
  nextFundingTime: Millis,
  openInterest: v.string(),
  openInterestValue: v.string(),
  fundingIntervalHour: v.optional(v.string()),
});
export type BybitTicker = v.InferOutput<typeof BybitTicker>;
const Tickers = v.object({ list: v.array(BybitTicker) });
const FundingHistory = v.object({ list: v.array(v.object({ fundingRate: v.string(), fundingRateTimestamp: Millis })) });

async function v5<S extends v.GenericSchema>(
  api: Upstream,
  path: string,
  result: S,
  query: Record<string, string | number | undefined>,
): Promise<v.InferOutput<S>> {
  const body = await api.json(path, Envelope, { query });
  if (body.retCode === 10001) throw notFound(`Bybit: ${body.retMsg}`);
  if (body.retCode !== 0 || !body.result)
    throw upstreamFailed(BYBIT, `Bybit answered retCode ${body.retCode}: ${body.retMsg}`);
  return checkUpstream(BYBIT, result, body.result);
}

/** Minutes between fundings, as instruments-info gives it (https://bybit-exchange.github.io/docs/v5/market/instrument). */
const Instruments = v.object({
  list: v.array(v.object({ symbol: v.string(), fundingInterval: v.optional(v.number()) })),
});

/** GET /v5/market/instruments-info: one linear contract's funding interval in hours, or null when Bybit gives none. */
export async function bybitFundingIntervalHours(api: Upstream, symbol: string): Promise<number | null> {
  const { list } = await v5(api, "/v5/market/instruments-info", Instruments, { category: "linear", symbol });
  const minutes = list.find((x) => x.symbol === symbol)?.fundingInterval;
  return minutes ? minutes / 60 : null;
}

/** GET /v5/market/tickers?category=linear: mark price, funding and open interest of every linear perpetual, or of one. */
export async function bybitTickers(api: Upstream, symbol?: string): Promise<BybitTicker[]> {
  return (await v5(api, "/v5/market/tickers", Tickers, { category: "linear", symbol })).list;
}

/** GET /v5/market/funding/history: newest first, 200 a page; pages back by endTime until startTime. */
export async function bybitFundingHistory(
  api: Upstream,
  symbol: string,
  startTime: number,
  endTime: number,
): Promise<FundingPrint[]> {
  return pagedFunding(
    { size: 200, maxPages: 10 },
    async (end = endTime) => {
      const query = { category: "linear", symbol, startTime, endTime: end, limit: 200 };
      const { list } = await v5(api, "/v5/market/funding/history", FundingHistory, query);
      return list.map((x) => ({ time: Number(x.fundingRateTimestamp), rate: x.fundingRate }));
    },
    (oldest) => oldest.time - 1,
  );
}
