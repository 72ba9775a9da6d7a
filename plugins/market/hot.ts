import * as v from "valibot";
import { defineEndpoint, type Upstream } from "../../core/endpoint.ts";
import {
  deepestPairs,
  DEX_CHAINS,
  DexPool,
  DEXSCREENER,
  dexscreenerTokenPairs,
  fromDexscreener,
  GECKOTERMINAL,
  geckoPools,
} from "../_shared/dex.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

/** What the code reads of DexScreener's top boosts. */
const Boosts = v.array(v.object({ chainId: v.string(), tokenAddress: v.string() }));
const knownChains = new Set(Object.values(DEX_CHAINS).map((c) => c.dexscreener));

/** DexScreener's most boosted tokens (paid promotion), priced by their deepest pair; chains we map only, 30 tokens a chain. */
async function boostedPools(api: Upstream): Promise<DexPool[]> {
  const boosts = await api.json("/token-boosts/top/v1", Boosts);
  const byChain = new Map<string, string[]>();
  for (const b of boosts)
    if (knownChains.has(b.chainId))
      byChain.set(b.chainId, [...(byChain.get(b.chainId) ?? []), b.tokenAddress].slice(0, 30));
  const pairs = (
    await Promise.all([...byChain].map(([chain, tokens]) => dexscreenerTokenPairs(api, chain, tokens)))
  ).flat();
  return [...deepestPairs(pairs).values()].map(fromDexscreener);
}

export default defineEndpoint({
  name: "hot",
  method: "GET",
  price: "$0.01",
  summary:
    "Trending DEX tokens right now across chains: price, 1 h and 24 h change, volume, liquidity, trades, pool link",
  description:
    "GeckoTerminal's trending pools (all networks) and DexScreener's most boosted tokens (boosts are paid promotion: those rows have source dexscreener), read at once. " +
    "One row per token (GeckoTerminal's kept when both list it), busiest 24 h volume first. Trending tokens include scams: check one before trading it.",
  input: v.object({
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Tokens to return, 1-50")),
      20,
    ),
  }),
  output: v.object({ tokens: v.array(DexPool), sources: SourcesReport }),
  example: {
    input: { limit: 1 },
    output: {
      tokens: [
        {
          chain: "solana",
          pool: "7qbRF6YsyGuLUVs6Y1q64bdVrfe4ZcUUz1JRdoVNUJnm",
          name: "WIF / SOL",
          dex: "raydium",
          baseToken: "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm",
          quoteToken: "So11111111111111111111111111111111111111112",
          priceUsd: "2.0412",
          priceChange1hPercent: "1.9",
          priceChange24hPercent: "12.4",
          volume24hUsd: "85123044.1",
          liquidityUsd: "41233123.5",
          txns24h: 91234,
          createdAt: "2023-12-09T02:11:45.000Z",
          url: "https://www.geckoterminal.com/solana/pools/7qbRF6YsyGuLUVs6Y1q64bdVrfe4ZcUUz1JRdoVNUJnm",
          source: "geckoterminal",
        },
      ],
      sources: { answered: ["geckoterminal", "dexscreener"], missing: [] },
    },
  },
  cacheTtl: 60,
  upstreams: [GECKOTERMINAL, DEXSCREENER],
  async handler({ input, upstream, signal }) {
    const { values, sources } = await gatherVenues(
      {
        [GECKOTERMINAL]: () => geckoPools(upstream(GECKOTERMINAL), "/networks/trending_pools", { page: 1 }),
        [DEXSCREENER]: () => boostedPools(upstream(DEXSCREENER)),
      },
      signal,
    );
    const seen = new Set<string>();
    const tokens = values
      .flatMap((x) => x.value)
      .filter((p) => {
        const key = `${p.chain}:${p.baseToken.toLowerCase()}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    tokens.sort((a, b) => Number(b.volume24hUsd ?? 0) - Number(a.volume24hUsd ?? 0));
    return { tokens: tokens.slice(0, input.limit), sources };
  },
});
