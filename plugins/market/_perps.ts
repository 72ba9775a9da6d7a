import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { annualizedPercent } from "./_decimal.ts";
import { BINANCE, binanceFundingIntervals, binancePremiumIndex } from "../_shared/binance.ts";
import { BYBIT, bybitFundingIntervalHours, bybitTickers } from "./_bybit.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { HYPERLIQUID, hyperliquidAssets } from "../_shared/hyperliquid.ts";
import { OKX, okxFundingRate } from "./_okx.ts";
import { iso, perpOn } from "../_shared/symbols.ts";

/** Current funding of one perpetual on one venue, rates as the venue prints them. */
export const VenueFunding = v.object({
  venue: v.string(),
  asset: v.pipe(v.string(), v.description("Base asset, e.g. BTC")),
  symbol: v.pipe(v.string(), v.description("The venue's own symbol")),
  rate: v.pipe(v.string(), v.description("Funding rate per interval as a fraction, as the venue gives it")),
  intervalHours: v.number(),
  annualizedPercent: v.pipe(v.string(), v.description("rate x periods per year x 100, in decimal arithmetic")),
  nextFundingTime: v.nullable(v.pipe(v.string(), v.description("ISO 8601"))),
  markPrice: v.nullable(v.string()),
});
export type VenueFunding = v.InferOutput<typeof VenueFunding>;

export const FUNDING_VENUES = [BINANCE, BYBIT, OKX, HYPERLIQUID] as const;

type Up = (name: typeof BINANCE | typeof BYBIT | typeof HYPERLIQUID | typeof OKX) => Upstream;

const entry = (
  venue: string,
  asset: string,
  symbol: string,
  rate: string,
  intervalHours: number,
  next: number | null,
  markPrice: string | null,
): VenueFunding => ({
  venue,
  asset,
  symbol,
  rate,
  intervalHours,
  annualizedPercent: annualizedPercent(rate, intervalHours),
  nextFundingTime: next ? iso(next) : null,
  markPrice,
});

/** One reader per venue, each returning the current funding of the given base assets it lists. */
export function fundingReaders(upstream: Up, assets: string[]): Record<string, () => Promise<VenueFunding[]>> {
  return {
    [BINANCE]: async () => {
      const api = upstream(BINANCE);
      const [index, intervals] = await Promise.all([binancePremiumIndex(api), binanceFundingIntervals(api)]);
      const bySymbol = new Map(index.map((x) => [x.symbol, x]));
      return assets.flatMap((asset) => {
        const x = bySymbol.get(perpOn.binance(asset));
        return x
          ? [
              entry(
                BINANCE,
                asset,
                x.symbol,
                x.lastFundingRate,
                intervals.get(x.symbol) ?? 8,
                x.nextFundingTime,
                x.markPrice,
              ),
            ]
          : [];
      });
    },
    [BYBIT]: async () => {
      const api = upstream(BYBIT);
      const bySymbol = new Map((await bybitTickers(api)).map((x) => [x.symbol, x]));
      const listed = assets.flatMap((asset) => {
        const x = bySymbol.get(perpOn.bybit(asset));
        return x && x.fundingRate !== "" ? [{ asset, x }] : [];
      });
      // Bybit contracts settle every 1, 2, 4 or 8 h: a ticker without its interval is looked up, never assumed.
      return Promise.all(
        listed.map(async ({ asset, x }) => {
          const hours = x.fundingIntervalHour
            ? Number(x.fundingIntervalHour)
            : await bybitFundingIntervalHours(api, x.symbol);
          if (!hours) throw upstreamFailed(BYBIT, `Bybit gives no funding interval for ${x.symbol}`);
          return entry(BYBIT, asset, x.symbol, x.fundingRate, hours, Number(x.nextFundingTime), x.markPrice);
        }),
      );
    },
    [OKX]: async () => {
      const api = upstream(OKX);
      const rows = await Promise.all(
        assets.map((asset) => okxFundingRate(api, perpOn.okx(asset)).then((x) => ({ asset, x }))),
      );
      return rows.map(({ asset, x }) => {
        const hours = Math.round((Number(x.nextFundingTime) - Number(x.fundingTime)) / 3_600_000) || 8;
        return entry(OKX, asset, x.instId, x.fundingRate, hours, Number(x.fundingTime), null);
      });
    },
    [HYPERLIQUID]: async () => {
      const byName = new Map((await hyperliquidAssets(upstream(HYPERLIQUID))).map((x) => [x.name, x]));
      return assets.flatMap((asset) => {
        const x = byName.get(perpOn.hyperliquid(asset));
        return x ? [entry(HYPERLIQUID, asset, x.name, x.funding, 1, null, x.markPx)] : [];
      });
    },
  };
}
