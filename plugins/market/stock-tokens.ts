import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { DEXSCREENER } from "../_shared/dex.ts";
import {
  coinbaseStocks,
  COINBASE_STOCKS,
  dexPairs,
  matchesQuery,
  pairsOf,
  StockToken,
  withMarket,
} from "./_stock-tokens.ts";
import { SourcesReport } from "./_venues.ts";

export default defineEndpoint({
  name: "stock-tokens",
  method: "GET",
  price: "$0.005",
  summary:
    "Tokenized stocks on-chain from the issuer's registry: symbol, ISIN, contract, supply, multiplier, NAV, DEX price, volume and liquidity",
  description:
    "The registry is Coinbase's tokenized-stocks API (Coinbase-issued stocks on Base: contract, ISIN, supply, shares-per-token multiplier, paused features, Chainlink NAV). " +
    "Only registry addresses are listed, so look-alike tokens never appear. DEX market from DexScreener (deepest pool's price, volume and liquidity summed over pools); " +
    "when DexScreener is down the registry still answers, with null market fields and the failure in sources.missing. Sorted by symbol.",
  input: v.object({
    q: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(40),
        v.description("Search by symbol, ticker, name or ISIN (case-insensitive substring)"),
      ),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Tokens to return, 1-100")),
      50,
    ),
  }),
  output: v.object({
    tokens: v.array(StockToken),
    matched: v.pipe(v.number(), v.description("Registry tokens matching q before the limit")),
    sources: SourcesReport,
  }),
  example: {
    input: { q: "apple", limit: 1 },
    output: {
      tokens: [
        {
          symbol: "AAPL",
          ticker: "AAPL",
          name: "Apple",
          isin: "US0378331005",
          issuer: "Coinbase",
          chain: "base",
          address: "0xb200000000000000000000C2e324d24d7eEcd1fb",
          decimals: 8,
          totalSupply: "1523.75",
          multiplier: "1",
          pausedFeatures: [],
          navPriceUsd: "229.87",
          navPriceUpdatedAt: "2025-08-18T20:00:00.000Z",
          priceUsd: "230.12",
          priceChange24hPercent: "0.42",
          volume24hUsd: "58123.9",
          liquidityUsd: "412345.67",
          pools: 2,
          poolUrl: "https://dexscreener.com/base/0x5c1b8f3c7e2a9d4b6f0e1a2c3d4e5f6a7b8c9d0e",
        },
      ],
      matched: 1,
      sources: { answered: ["coinbase-tokenized-stocks", "dexscreener"], missing: [] },
    },
  },
  cacheTtl: 30,
  upstreams: [COINBASE_STOCKS, DEXSCREENER],
  async handler({ input, upstream, signal }) {
    const registry = await coinbaseStocks(upstream(COINBASE_STOCKS));
    const matched = input.q === undefined ? registry : registry.filter((t) => matchesQuery(t, input.q!));
    const page = matched.slice(0, input.limit);
    const { pairs, sources } = await dexPairs(upstream(DEXSCREENER), page, signal);
    return { tokens: page.map((t) => withMarket(t, pairsOf(pairs, t))), matched: matched.length, sources };
  },
});
