import * as v from "valibot";
import { PerpSymbol } from "../_shared/symbols.ts";
import { skip } from "./_compose.ts";
import { CoinId, decimalFigure, figure, meanOf, type PartDataOf } from "./_digest.ts";

export const SymbolInput = {
  symbol: v.optional(
    v.pipe(PerpSymbol, v.description("Asset or perpetual symbol: BTC, ETH, SOL, BTCUSDT, BTC-USDT-SWAP")),
    "BTC",
  ),
  coin: v.optional(CoinId),
};

export const PriceDigest = {
  asset: v.pipe(v.string(), v.description("Base asset of the symbol")),
  priceUsd: figure("Spot price in USD (crypto-price)"),
  change24hPercent: figure("24 h price change, percent (crypto-price)"),
  fundingAnnualizedPercent: decimalFigure(
    "Mean annualized perpetual funding across venues, percent; positive: longs pay shorts (funding covers BTC, ETH, SOL)",
  ),
  openInterestUsd: decimalFigure("Open interest across venues, USD (open-interest)"),
};

/** The parts priceDigest reads, and their plan for an asset (`coin` is its CoinGecko id, if known). */
export const priceParts = { price: "crypto-price", funding: "funding", openInterest: "open-interest" } as const;
export function pricePlan(asset: string, coin: string | undefined) {
  return {
    price: coin ? { ids: coin } : skip(`no CoinGecko id known for ${asset}: pass coin`),
    funding: {},
    openInterest: { symbol: `${asset}USDT` },
  };
}

interface PriceData {
  prices?: { priceUsd: number; change24hPercent: number | null }[];
}
interface FundingData {
  assets?: { asset: string; venues: { annualizedPercent: string }[] }[];
}
interface OpenInterestData {
  totalNotionalUsd?: string;
}

/** Price, funding and open interest of one asset, from the parts that answered. */
export function priceDigest(asset: string, data: PartDataOf<"price" | "funding" | "openInterest">) {
  const price = (data.price as PriceData | undefined)?.prices?.[0];
  const funding = (data.funding as FundingData | undefined)?.assets?.find((a) => a.asset === asset);
  return {
    asset,
    priceUsd: price?.priceUsd ?? null,
    change24hPercent: price?.change24hPercent ?? null,
    fundingAnnualizedPercent: meanOf(funding?.venues.map((x) => x.annualizedPercent) ?? []),
    openInterestUsd: (data.openInterest as OpenInterestData | undefined)?.totalNotionalUsd ?? null,
  };
}

export const FearGreed = v.pipe(
  v.nullable(v.object({ value: v.number(), classification: v.string() })),
  v.description("Crypto Fear & Greed index, 0 (extreme fear) to 100 (extreme greed)"),
);
export const fearGreedOf = (data: unknown) => {
  const fg = data as { value?: number; classification?: string } | undefined;
  return fg?.value === undefined ? null : { value: fg.value, classification: fg.classification ?? "" };
};
