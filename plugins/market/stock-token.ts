import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { DexPool, DEXSCREENER, fromDexscreener } from "../_shared/dex.ts";
import {
  coinbaseStocks,
  COINBASE_STOCKS,
  dexPairs,
  findBySymbol,
  pairsOf,
  StockToken,
  withMarket,
} from "./_stock-tokens.ts";
import { SourcesReport } from "./_venues.ts";

export default defineEndpoint({
  name: "stock-token",
  method: "GET",
  price: "$0.005",
  summary:
    "One tokenized stock: issuer registry record (contract, ISIN, supply, multiplier, paused features, NAV) and every DEX pool trading it",
  description:
    "Looks the symbol up in Coinbase's tokenized-stocks registry (Base): AAPL and AAPLc both find Apple's token; isin narrows the match. " +
    "Pools from DexScreener where the registry contract is the base token, deepest first. No pools, or DexScreener down, leaves the market fields null " +
    "(the latter named in sources.missing). NAV is the issuer's Chainlink reference value, shown beside the DEX price rather than turned into a premium.",
  input: v.object({
    symbol: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(12),
      v.regex(/^[A-Za-z0-9][A-Za-z0-9.-]*$/, "a ticker such as AAPL or AAPLc"),
      v.description("Ticker or token symbol (required)"),
    ),
    isin: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{2}[A-Za-z0-9]{9}[0-9]$/, "a 12-character ISIN such as US0378331005"),
        v.description("ISIN of the underlying share, to pick one issuer's token"),
      ),
    ),
  }),
  output: v.object({ token: StockToken, pools: v.array(DexPool), sources: SourcesReport }),
  example: {
    input: { symbol: "AAPL" },
    output: {
      token: {
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
        pools: 1,
        poolUrl: "https://dexscreener.com/base/0x5c1b8f3c7e2a9d4b6f0e1a2c3d4e5f6a7b8c9d0e",
      },
      pools: [
        {
          chain: "base",
          pool: "0x5c1b8f3c7e2a9d4b6f0e1a2c3d4e5f6a7b8c9d0e",
          name: "AAPL / USDC",
          dex: "uniswap",
          baseToken: "0xb200000000000000000000C2e324d24d7eEcd1fb",
          quoteToken: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
          priceUsd: "230.12",
          priceChange1hPercent: "0.05",
          priceChange24hPercent: "0.42",
          volume24hUsd: "58123.9",
          liquidityUsd: "412345.67",
          txns24h: 212,
          createdAt: "2025-07-30T14:02:11.000Z",
          url: "https://dexscreener.com/base/0x5c1b8f3c7e2a9d4b6f0e1a2c3d4e5f6a7b8c9d0e",
          source: "dexscreener",
        },
      ],
      sources: { answered: ["coinbase-tokenized-stocks", "dexscreener"], missing: [] },
    },
  },
  cacheTtl: 15,
  upstreams: [COINBASE_STOCKS, DEXSCREENER],
  async handler({ input, upstream, signal }) {
    const registry = await coinbaseStocks(upstream(COINBASE_STOCKS));
    const token = findBySymbol(registry, input.symbol, input.isin);
    if (!token)
      throw notFound(
        `No issuer registry lists a tokenized stock ${input.symbol}${input.isin ? ` with ISIN ${input.isin.toUpperCase()}` : ""}`,
      );
    const found = await dexPairs(upstream(DEXSCREENER), [token], signal);
    const pairs = pairsOf(found.pairs, token);
    return { token: withMarket(token, pairs), pools: pairs.map(fromDexscreener), sources: found.sources };
  },
});
