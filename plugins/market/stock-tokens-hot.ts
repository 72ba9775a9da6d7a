import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Decimal } from "./_decimal.ts";
import { DEXSCREENER } from "../_shared/dex.ts";
import { coinbaseStocks, COINBASE_STOCKS, pairsOf, pairsOfTokens, StockToken, withMarket } from "./_stock-tokens.ts";

export default defineEndpoint({
  name: "stock-tokens-hot",
  method: "GET",
  price: "$0.01",
  summary: "Most-traded tokenized stocks on DEXs right now: 24 h volume, price, change, liquidity, NAV and pool link",
  description:
    "Every token of Coinbase's tokenized-stocks registry (Base), priced on DexScreener, ranked by 24 h DEX volume summed over its pools. " +
    "Only registry contracts are ranked, so look-alike tokens never appear; tokens no pool trades are left out. The ranking needs DexScreener: without it the call fails (not charged).",
  input: v.object({
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Tokens to return, 1-50")),
      10,
    ),
  }),
  output: v.object({ tokens: v.array(StockToken) }),
  example: {
    input: { limit: 1 },
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
          pools: 1,
          poolUrl: "https://dexscreener.com/base/0x5c1b8f3c7e2a9d4b6f0e1a2c3d4e5f6a7b8c9d0e",
        },
      ],
    },
  },
  cacheTtl: 60,
  upstreams: [COINBASE_STOCKS, DEXSCREENER],
  async handler({ input, upstream }) {
    const registry = await coinbaseStocks(upstream(COINBASE_STOCKS));
    const pairs = await pairsOfTokens(upstream(DEXSCREENER), registry);
    const traded = registry.map((t) => withMarket(t, pairsOf(pairs, t))).filter((t) => t.pools > 0);
    const volume = (t: StockToken) => new Decimal(t.volume24hUsd ?? 0);
    traded.sort((a, b) => volume(b).comparedTo(volume(a)) || a.symbol.localeCompare(b.symbol));
    return { tokens: traded.slice(0, input.limit) };
  },
});
