import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { BINANCE, binanceOpenInterest, binancePremiumIndex } from "../_shared/binance.ts";
import { BYBIT, bybitTickers } from "./_bybit.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { HYPERLIQUID, hyperliquidAssets } from "../_shared/hyperliquid.ts";
import { OKX, okxOpenInterest } from "./_okx.ts";
import { iso, perpOn } from "../_shared/symbols.ts";

export const OPEN_INTEREST_VENUES = [BINANCE, BYBIT, OKX, HYPERLIQUID] as const;

export const VenueOpenInterest = v.object({
  venue: v.string(),
  symbol: v.string(),
  openInterest: v.pipe(v.string(), v.description("Open interest in the base asset, as the venue gives it")),
  notionalUsd: v.pipe(v.string(), v.description("In USD(T): the venue's own figure, or open interest x mark price")),
  markPrice: v.nullable(v.string()),
  time: v.nullable(v.pipe(v.string(), v.description("ISO 8601 time of the venue's figure"))),
});
export type VenueOpenInterest = v.InferOutput<typeof VenueOpenInterest>;

const notional = (oi: string, mark: string) => fixed(new Decimal(oi).times(mark), 2);

/** One reader per venue: the open interest of one base asset's USDT perpetual, in coin and USD. */
export function openInterestReaders(
  upstream: (name: typeof BINANCE | typeof BYBIT | typeof HYPERLIQUID | typeof OKX) => Upstream,
  base: string,
): Record<string, () => Promise<VenueOpenInterest>> {
  return {
    [BINANCE]: async () => {
      const api = upstream(BINANCE);
      const [oi, [index]] = await Promise.all([
        binanceOpenInterest(api, perpOn.binance(base)),
        binancePremiumIndex(api, perpOn.binance(base)),
      ]);
      return {
        venue: BINANCE,
        symbol: oi.symbol,
        openInterest: oi.openInterest,
        notionalUsd: notional(oi.openInterest, index.markPrice),
        markPrice: index.markPrice,
        time: iso(oi.time),
      };
    },
    [BYBIT]: async () => {
      const [x] = await bybitTickers(upstream(BYBIT), perpOn.bybit(base));
      if (!x) throw notFound(`Bybit lists no ${perpOn.bybit(base)}`);
      return {
        venue: BYBIT,
        symbol: x.symbol,
        openInterest: x.openInterest,
        notionalUsd: x.openInterestValue,
        markPrice: x.markPrice,
        time: null,
      };
    },
    [OKX]: async () => {
      const x = await okxOpenInterest(upstream(OKX), perpOn.okx(base));
      return {
        venue: OKX,
        symbol: x.instId,
        openInterest: x.oiCcy,
        notionalUsd: x.oiUsd ?? "0",
        markPrice: null,
        time: iso(x.ts),
      };
    },
    [HYPERLIQUID]: async () => {
      const x = (await hyperliquidAssets(upstream(HYPERLIQUID))).find((a) => a.name === perpOn.hyperliquid(base));
      if (!x) throw notFound(`Hyperliquid lists no ${base} perpetual`);
      return {
        venue: HYPERLIQUID,
        symbol: x.name,
        openInterest: x.openInterest,
        notionalUsd: notional(x.openInterest, x.markPx),
        markPrice: x.markPx,
        time: null,
      };
    },
  };
}
