import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { DEX_CHAINS, DexPool, GECKOTERMINAL, geckoPools } from "../_shared/dex.ts";

export default defineEndpoint({
  name: "new-pairs",
  method: "GET",
  price: "$0.005",
  summary: "Newly created DEX pools on a chain, newest first, with price, liquidity, volume and trade count",
  description:
    "From GeckoTerminal's new_pools list (one page, the 20 newest pools of the network), keeping pools created within maxAgeMin. " +
    "New pools are often scams or honeypots: check a token before trading it.",
  input: v.object({
    chain: v.optional(
      v.pipe(
        v.picklist(Object.keys(DEX_CHAINS)),
        v.description("Chain: ethereum, base, bsc, solana, arbitrum, polygon, optimism, avalanche"),
      ),
      "ethereum",
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description("Pools to return, 1-20")),
      20,
    ),
    maxAgeMin: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(10_080),
        v.description("Only pools created within this many minutes (up to 7 days)"),
      ),
      60,
    ),
  }),
  output: v.object({ chain: v.string(), maxAgeMin: v.number(), pools: v.array(DexPool) }),
  example: {
    input: { chain: "base", limit: 1, maxAgeMin: 60 },
    output: {
      chain: "base",
      maxAgeMin: 60,
      pools: [
        {
          chain: "base",
          pool: "0x8f1a3a5c0e2d7b44a6a0f6e1b1d3a9c2e4f5a6b7",
          name: "BLOB / WETH",
          dex: "uniswap-v3-base",
          baseToken: "0x4b2c1d3e5f60718293a4b5c6d7e8f90112233445",
          quoteToken: "0x4200000000000000000000000000000000000006",
          priceUsd: "0.000412331",
          priceChange1hPercent: "35.2",
          priceChange24hPercent: "35.2",
          volume24hUsd: "18210.55",
          liquidityUsd: "24120.8012",
          txns24h: 143,
          createdAt: "2025-01-15T11:52:11.000Z",
          url: "https://www.geckoterminal.com/base/pools/0x8f1a3a5c0e2d7b44a6a0f6e1b1d3a9c2e4f5a6b7",
          source: "geckoterminal",
        },
      ],
    },
  },
  cacheTtl: 30,
  upstreams: [GECKOTERMINAL],
  async handler({ input, upstream, now }) {
    const network = DEX_CHAINS[input.chain].gecko;
    const pools = await geckoPools(upstream(GECKOTERMINAL), `/networks/${network}/new_pools`, { page: 1 });
    const since = now().getTime() - input.maxAgeMin * 60_000;
    const fresh = pools
      .filter((p) => p.createdAt !== null && Date.parse(p.createdAt) >= since)
      .sort((a, b) => Date.parse(b.createdAt!) - Date.parse(a.createdAt!));
    return { chain: input.chain, maxAgeMin: input.maxAgeMin, pools: fresh.slice(0, input.limit) };
  },
});
