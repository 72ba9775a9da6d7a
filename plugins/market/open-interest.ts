import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { OPEN_INTEREST_VENUES, openInterestReaders, VenueOpenInterest } from "./_open-interest.ts";
import { baseAsset, PerpSymbol } from "../_shared/symbols.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

export default defineEndpoint({
  name: "open-interest",
  method: "GET",
  price: "$0.005",
  summary: "Open interest of a USDT perpetual on Binance, Bybit, OKX and Hyperliquid, in coin and USD",
  description:
    "Venues are read at once; the total adds the venues that answered, and sources.missing names the others (Binance answers 451 to US addresses). " +
    "A symbol no venue lists is a 404.",
  input: v.object({
    symbol: v.optional(
      v.pipe(PerpSymbol, v.description("Perpetual or base asset: BTC, BTCUSDT, ETH-USDT-SWAP")),
      "BTCUSDT",
    ),
  }),
  output: v.object({
    asset: v.string(),
    venues: v.array(VenueOpenInterest),
    totalNotionalUsd: v.string(),
    sources: SourcesReport,
  }),
  example: {
    input: { symbol: "BTCUSDT" },
    output: {
      asset: "BTC",
      venues: [
        {
          venue: "bybit",
          symbol: "BTCUSDT",
          openInterest: "52341.118",
          notionalUsd: "5203707766.96",
          markPrice: "99418.10",
          time: null,
        },
        {
          venue: "okx",
          symbol: "BTC-USDT-SWAP",
          openInterest: "27512.43",
          notionalUsd: "2735245678.1",
          markPrice: null,
          time: "2025-01-15T12:00:00.000Z",
        },
      ],
      totalNotionalUsd: "7938953445.06",
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
    const asset = baseAsset(input.symbol);
    const { values, sources } = await gatherVenues(openInterestReaders(upstream, asset), signal);
    const venues = values.map((x) => x.value);
    const total = venues.reduce((sum, x) => sum.plus(x.notionalUsd), new Decimal(0));
    return { asset, venues, totalNotionalUsd: fixed(total, 2), sources };
  },
});
