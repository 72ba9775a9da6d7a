import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { FUNDING_VENUES, fundingReaders, VenueFunding } from "./_perps.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

const MAJORS = ["BTC", "ETH", "SOL"];

export default defineEndpoint({
  name: "funding",
  method: "GET",
  price: "$0.01",
  mcp: true,
  summary: "Current perpetual funding of BTC, ETH and SOL on Binance, Bybit, OKX and Hyperliquid, annualized",
  description:
    "Each venue's current funding rate per interval (8 h on most, 1 h on Hyperliquid), the yearly percentage it implies and the spread between venues. " +
    "Venues are read at once; one that fails or refuses the region (Binance answers 451 to US addresses) is listed under sources.missing.",
  input: v.object({}),
  output: v.object({
    assets: v.array(
      v.object({
        asset: v.string(),
        venues: v.array(VenueFunding),
        spreadAnnualizedPercent: v.pipe(
          v.nullable(v.string()),
          v.description("Highest minus lowest annualized rate; null with one venue"),
        ),
      }),
    ),
    sources: SourcesReport,
  }),
  example: {
    input: {},
    output: {
      assets: [
        {
          asset: "BTC",
          venues: [
            {
              venue: "bybit",
              asset: "BTC",
              symbol: "BTCUSDT",
              rate: "0.0001",
              intervalHours: 8,
              annualizedPercent: "10.95",
              nextFundingTime: "2025-01-15T16:00:00.000Z",
              markPrice: "99421.30",
            },
            {
              venue: "hyperliquid",
              asset: "BTC",
              symbol: "BTC",
              rate: "0.0000125",
              intervalHours: 1,
              annualizedPercent: "10.95",
              nextFundingTime: null,
              markPrice: "99398.0",
            },
          ],
          spreadAnnualizedPercent: "0",
        },
      ],
      sources: {
        answered: ["bybit", "hyperliquid"],
        missing: [
          { venue: "binance-futures", reason: "binance-futures answered 451" },
          { venue: "okx", reason: "okx could not be reached" },
        ],
      },
    },
  },
  cacheTtl: 60,
  upstreams: [...FUNDING_VENUES],
  async handler({ upstream, signal }) {
    const { values, sources } = await gatherVenues(fundingReaders(upstream, MAJORS), signal);
    const rows = values.flatMap((x) => x.value);
    return {
      assets: MAJORS.map((asset) => {
        const venues = rows.filter((r) => r.asset === asset);
        return { asset, venues, spreadAnnualizedPercent: spread(venues.map((r) => r.annualizedPercent)) };
      }).filter((a) => a.venues.length > 0),
      sources,
    };
  },
});

function spread(values: string[]): string | null {
  if (values.length < 2) return null;
  const sorted = values.map((x) => new Decimal(x)).sort((a, b) => a.comparedTo(b));
  return fixed(sorted[sorted.length - 1].minus(sorted[0]), 4);
}
