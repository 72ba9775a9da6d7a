import * as v from "valibot";
import { defineBundle, skip } from "./_compose.ts";
import { assetOf, figure } from "./_digest.ts";
import {
  FearGreed,
  fearGreedOf,
  PriceDigest,
  priceDigest,
  priceParts,
  pricePlan,
  SymbolInput,
} from "./_market-parts.ts";
import { examples } from "./_examples.ts";

interface Side {
  liquidationPrice: string;
}
interface LiquidationData {
  bands?: { leverage: string; long: Side; short: Side }[];
}
interface OptionsData {
  dvol?: number | null;
  openInterest?: { putCallRatio: number | null };
}

/** Funding above this, annualized, means longs pay heavily to stay in: a crowded long. */
const CROWDED_LONG_PERCENT = 20;

export default defineBundle({
  name: "trader-pack",
  price: "$0.03",
  summary:
    "Trader briefing for a symbol: price, cross-venue funding, open interest, liquidation levels, options (BTC/ETH), fear & greed, headlines",
  description:
    "Composes crypto-price, funding, open-interest, liquidation-levels, options (BTC and ETH only), fear-greed and news. " +
    `The summary adds the nearest liquidation band (its leverage and the long and short liquidation prices), Deribit's DVOL and put/call open-interest ratio, and a positioning read: crowded-long when mean annualized funding is above ${CROWDED_LONG_PERCENT} %, shorts-paying when it is negative, else neutral.`,
  input: v.object(SymbolInput),
  parts: {
    ...priceParts,
    liquidations: "liquidation-levels",
    options: "options",
    fearGreed: "fear-greed",
    news: "news",
  },
  plan(input) {
    const { asset, coin } = assetOf(input.symbol, input.coin);
    return {
      ...pricePlan(asset, coin),
      liquidations: { asset, levels: 3 },
      options:
        asset === "BTC" || asset === "ETH" ? { currency: asset } : skip("Deribit lists options on BTC and ETH only"),
      fearGreed: {},
      news: { limit: 10 },
    };
  },
  digest: v.object({
    ...PriceDigest,
    positioning: v.pipe(
      v.nullable(v.picklist(["crowded-long", "neutral", "shorts-paying"])),
      v.description("From mean annualized funding; null without funding data"),
    ),
    nearestLiquidation: v.pipe(
      v.nullable(v.object({ leverage: v.string(), longPrice: v.string(), shortPrice: v.string() })),
      v.description("The highest-leverage band of liquidation-levels: where such longs and shorts are liquidated"),
    ),
    dvol: figure("Deribit's 30-day implied volatility index (BTC, ETH)"),
    putCallRatio: figure("Options put/call open-interest ratio (BTC, ETH)"),
    fearGreed: FearGreed,
  }),
  summarize(data, input) {
    const prices = priceDigest(assetOf(input.symbol).asset, data);
    const funding = prices.fundingAnnualizedPercent === null ? null : Number(prices.fundingAnnualizedPercent);
    const bands = (data.liquidations as LiquidationData | undefined)?.bands ?? [];
    const nearest = [...bands].sort((a, b) => Number(b.leverage) - Number(a.leverage))[0];
    const options = data.options as OptionsData | undefined;
    return {
      ...prices,
      positioning:
        funding === null
          ? null
          : funding > CROWDED_LONG_PERCENT
            ? ("crowded-long" as const)
            : funding < 0
              ? ("shorts-paying" as const)
              : ("neutral" as const),
      nearestLiquidation: nearest
        ? {
            leverage: nearest.leverage,
            longPrice: nearest.long.liquidationPrice,
            shortPrice: nearest.short.liquidationPrice,
          }
        : null,
      dvol: options?.dvol ?? null,
      putCallRatio: options?.openInterest?.putCallRatio ?? null,
      fearGreed: fearGreedOf(data.fearGreed),
    };
  },
  example: examples["trader-pack"],
});
