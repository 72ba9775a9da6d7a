import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { Decimal, fixed, median } from "./_decimal.ts";
import { OPEN_INTEREST_VENUES, openInterestReaders, type VenueOpenInterest } from "./_open-interest.ts";
import { baseAsset, PerpSymbol } from "../_shared/symbols.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

/** Maintenance margin assumed for every tier: Binance's and Bybit's first BTC/ETH tier is 0.4-0.5 %. */
const MAINTENANCE_MARGIN = new Decimal("0.005");

const Side = v.object({
  liquidationPrice: v.string(),
  distancePercent: v.pipe(v.string(), v.description("Liquidation price versus the mark price, percent")),
});

const Band = v.object({
  leverage: v.pipe(v.string(), v.description("Leverage of this tier")),
  long: Side,
  short: Side,
  usdAtRiskPerSide: v.pipe(v.string(), v.description("Open interest assumed at this tier on each side, USD")),
});

/** Leverage tiers from half to double the average, evenly spaced on a log scale (one tier: the average itself). */
function leverageTiers(average: number, count: number): Decimal[] {
  if (count === 1) return [new Decimal(average)];
  return Array.from({ length: count }, (_, i) => new Decimal(2).pow(-1 + (2 * i) / (count - 1)).times(average));
}

/** A venue's mark price, or its USD notional over its coin open interest when it publishes none (OKX). */
function markOf(x: VenueOpenInterest): Decimal | undefined {
  if (x.markPrice) return new Decimal(x.markPrice);
  const oi = new Decimal(x.openInterest);
  return oi.gt(0) ? new Decimal(x.notionalUsd).dividedBy(oi) : undefined;
}

export default defineEndpoint({
  name: "liquidation-levels",
  method: "GET",
  price: "$0.01",
  summary:
    "Estimated liquidation price bands for longs and shorts of a perpetual, from live mark price and open interest",
  description:
    "A model, not observed liquidations. Mark price is the median of the venues that answered (Binance, Bybit, OKX, Hyperliquid); open interest is their total in USD. " +
    "The open interest is split evenly over `levels` leverage tiers from half to double `avgLeverage` and evenly between longs and shorts, everyone entered at the mark price; " +
    "a long at leverage L is liquidated at mark x (1 - 1/L + 0.5 %), a short at mark x (1 + 1/L - 0.5 %). Decimal arithmetic throughout.",
  input: v.object({
    asset: v.optional(v.pipe(PerpSymbol, v.description("Perpetual or base asset: BTC, ETHUSDT, SOL-USDT-SWAP")), "BTC"),
    avgLeverage: v.optional(
      v.pipe(v.number(), v.minValue(2), v.maxValue(100), v.description("Average leverage assumed for open positions")),
      10,
    ),
    levels: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(20),
        v.description("Number of leverage tiers (bands) on each side"),
      ),
      5,
    ),
  }),
  output: v.object({
    asset: v.string(),
    markPrice: v.string(),
    openInterestUsd: v.string(),
    maintenanceMarginPercent: v.string(),
    bands: v.array(Band),
    venues: v.array(v.object({ venue: v.string(), notionalUsd: v.string(), markPrice: v.nullable(v.string()) })),
    model: v.string(),
    sources: SourcesReport,
  }),
  example: {
    input: { asset: "BTC", avgLeverage: 10, levels: 1 },
    output: {
      asset: "BTC",
      markPrice: "99418.32101132",
      openInterestUsd: "7938953445.06",
      maintenanceMarginPercent: "0.5",
      bands: [
        {
          leverage: "10",
          long: { liquidationPrice: "89973.58", distancePercent: "-9.5" },
          short: { liquidationPrice: "108863.06", distancePercent: "9.5" },
          usdAtRiskPerSide: "3969476722.53",
        },
      ],
      venues: [
        { venue: "bybit", notionalUsd: "5203707766.96", markPrice: "99418.10" },
        { venue: "okx", notionalUsd: "2735245678.1", markPrice: null },
      ],
      model:
        "even split over leverage tiers, entries at mark, 0.5 % maintenance margin; an estimate, not observed data",
      sources: {
        answered: ["bybit", "okx"],
        missing: [
          { venue: "binance-futures", reason: "binance-futures answered 451" },
          { venue: "hyperliquid", reason: "hyperliquid answered 500" },
        ],
      },
    },
  },
  cacheTtl: 60,
  upstreams: [...OPEN_INTEREST_VENUES],
  async handler({ input, upstream, signal }) {
    const asset = baseAsset(input.asset);
    const { values, sources } = await gatherVenues(openInterestReaders(upstream, asset), signal);
    const venues = values.map((x) => x.value);
    const marks = venues.map(markOf).filter((m): m is Decimal => Boolean(m?.gt(0)));
    if (marks.length === 0) throw upstreamFailed(sources.answered.join(","), `No venue gave a price for ${asset}`);
    const mark = median(marks);
    const total = venues.reduce((sum, x) => sum.plus(x.notionalUsd), new Decimal(0));
    const tiers = leverageTiers(input.avgLeverage, input.levels);
    const perSide = total.dividedBy(2).dividedBy(tiers.length);
    return {
      asset,
      markPrice: fixed(mark, 8),
      openInterestUsd: fixed(total, 2),
      maintenanceMarginPercent: fixed(MAINTENANCE_MARGIN.times(100), 4),
      bands: tiers.map((leverage) => {
        const move = new Decimal(1).dividedBy(leverage).minus(MAINTENANCE_MARGIN);
        return {
          leverage: fixed(leverage, 4),
          long: side(mark, move.negated()),
          short: side(mark, move),
          usdAtRiskPerSide: fixed(perSide, 2),
        };
      }),
      venues: venues.map((x) => ({ venue: x.venue, notionalUsd: x.notionalUsd, markPrice: x.markPrice })),
      model:
        "even split over leverage tiers, entries at mark, 0.5 % maintenance margin; an estimate, not observed data",
      sources,
    };
  },
});

function side(mark: Decimal, move: Decimal) {
  return { liquidationPrice: fixed(mark.times(move.plus(1)), 2), distancePercent: fixed(move.times(100), 4) };
}
