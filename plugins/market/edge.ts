import * as v from "valibot";
import { defineEndpoint, type Upstream } from "../../core/endpoint.ts";
import { BINANCE, binancePremiumIndex } from "../_shared/binance.ts";
import { BYBIT, bybitTickers } from "./_bybit.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { HYPERLIQUID, hyperliquidAssets } from "../_shared/hyperliquid.ts";
import { FUNDING_VENUES, fundingReaders } from "./_perps.ts";
import { perpOn } from "../_shared/symbols.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

const ASSETS = ["BTC", "ETH", "SOL"];

const FundingArb = v.object({
  kind: v.literal("funding-arb"),
  asset: v.string(),
  longVenue: v.pipe(v.string(), v.description("Venue with the lowest funding: the long leg pays least (or is paid)")),
  shortVenue: v.pipe(v.string(), v.description("Venue with the highest funding: the short leg is paid most")),
  longAnnualizedPercent: v.string(),
  shortAnnualizedPercent: v.string(),
  spreadAnnualizedPercent: v.pipe(v.string(), v.description("Funding carry of the pair before fees, yearly percent")),
});

const Basis = v.object({
  kind: v.literal("basis"),
  asset: v.string(),
  venue: v.string(),
  markPrice: v.string(),
  indexPrice: v.pipe(v.string(), v.description("The venue's spot index (Hyperliquid: oracle price)")),
  basisBps: v.pipe(
    v.string(),
    v.description("(mark - index) / index in basis points; positive means the perpetual trades rich"),
  ),
});

type BasisSignal = v.InferOutput<typeof Basis>;

function basisReaders(
  upstream: (name: typeof BINANCE | typeof BYBIT | typeof HYPERLIQUID) => Upstream,
): Record<string, () => Promise<BasisSignal[]>> {
  const signal = (venue: string, asset: string, mark: string, index: string): BasisSignal => ({
    kind: "basis",
    asset,
    venue,
    markPrice: mark,
    indexPrice: index,
    basisBps: fixed(new Decimal(mark).minus(index).dividedBy(index).times(10_000), 4),
  });
  const pick = <T>(
    list: T[],
    key: (x: T) => string,
    symbolOf: (asset: string) => string,
    make: (asset: string, x: T) => BasisSignal,
  ) => {
    const byKey = new Map(list.map((x) => [key(x), x]));
    return ASSETS.flatMap((asset) => {
      const x = byKey.get(symbolOf(asset));
      return x ? [make(asset, x)] : [];
    });
  };
  return {
    [BINANCE]: async () =>
      pick(
        await binancePremiumIndex(upstream(BINANCE)),
        (x) => x.symbol,
        perpOn.binance,
        (a, x) => signal(BINANCE, a, x.markPrice, x.indexPrice),
      ),
    [BYBIT]: async () =>
      pick(
        await bybitTickers(upstream(BYBIT)),
        (x) => x.symbol,
        perpOn.bybit,
        (a, x) => signal(BYBIT, a, x.markPrice, x.indexPrice),
      ),
    [HYPERLIQUID]: async () =>
      pick(
        await hyperliquidAssets(upstream(HYPERLIQUID)),
        (x) => x.name,
        perpOn.hyperliquid,
        (a, x) => signal(HYPERLIQUID, a, x.markPx, x.oraclePx),
      ),
  };
}

export default defineEndpoint({
  name: "edge",
  method: "GET",
  price: "$0.01",
  summary:
    "Ranked market signals for BTC, ETH and SOL perpetuals: cross-venue funding carry or perpetual basis against spot",
  description:
    "type=funding-arb: for each asset, the venue pair (Binance, Bybit, OKX, Hyperliquid) with the widest annualized funding spread, long the lowest and short the highest, largest spread first. " +
    "type=basis: each venue's mark price against its spot index (Binance, Bybit, Hyperliquid), largest absolute basis first. " +
    "Computed from the same reads as funding; before fees and slippage. Information, not investment advice.",
  input: v.object({
    type: v.optional(
      v.pipe(v.picklist(["funding-arb", "basis"]), v.description("Which signal: funding-arb or basis")),
      "funding-arb",
    ),
  }),
  output: v.object({
    type: v.string(),
    signals: v.array(v.variant("kind", [FundingArb, Basis])),
    note: v.string(),
    sources: SourcesReport,
  }),
  example: {
    input: { type: "basis" },
    output: {
      type: "basis",
      signals: [
        {
          kind: "basis",
          asset: "BTC",
          venue: "binance-futures",
          markPrice: "99421.30000000",
          indexPrice: "99450.12340000",
          basisBps: "-2.8983",
        },
      ],
      note: "Information, not investment advice; before fees, slippage and borrow costs",
      sources: {
        answered: ["binance-futures"],
        missing: [
          { venue: "bybit", reason: "bybit answered 403" },
          { venue: "hyperliquid", reason: "hyperliquid answered 500" },
        ],
      },
    },
  },
  cacheTtl: 60,
  upstreams: [...FUNDING_VENUES],
  async handler({ input, upstream, signal }) {
    const note = "Information, not investment advice; before fees, slippage and borrow costs";
    if (input.type === "basis") {
      const { values, sources } = await gatherVenues(basisReaders(upstream), signal);
      const signals = values
        .flatMap((x) => x.value)
        .sort((a, b) => new Decimal(b.basisBps).abs().comparedTo(new Decimal(a.basisBps).abs()));
      return { type: input.type, signals, note, sources };
    }
    const { values, sources } = await gatherVenues(fundingReaders(upstream, ASSETS), signal);
    const rows = values.flatMap((x) => x.value);
    const signals = ASSETS.flatMap((asset) => {
      const venues = rows
        .filter((r) => r.asset === asset)
        .sort((a, b) => new Decimal(a.annualizedPercent).comparedTo(b.annualizedPercent));
      if (venues.length < 2) return [];
      const [low, high] = [venues[0], venues[venues.length - 1]];
      return [
        {
          kind: "funding-arb" as const,
          asset,
          longVenue: low.venue,
          shortVenue: high.venue,
          longAnnualizedPercent: low.annualizedPercent,
          shortAnnualizedPercent: high.annualizedPercent,
          spreadAnnualizedPercent: fixed(new Decimal(high.annualizedPercent).minus(low.annualizedPercent), 4),
        },
      ];
    }).sort((a, b) => new Decimal(b.spreadAnnualizedPercent).comparedTo(a.spreadAnnualizedPercent));
    return { type: input.type, signals, note, sources };
  },
});
