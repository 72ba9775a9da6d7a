import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Decimal, fixed } from "./_decimal.ts";

const PENDLE = "pendle";

/** Chains Pendle is deployed on, by slug. */
const CHAIN_IDS: Record<string, number> = {
  ethereum: 1,
  arbitrum: 42161,
  base: 8453,
  bsc: 56,
  optimism: 10,
  mantle: 5000,
  sonic: 146,
  berachain: 80094,
  hyperevm: 999,
};

const o = v.optional;
/** What the code reads of a market in Pendle's cross-chain list (`expiry` an ISO timestamp, or Unix seconds as the quickstart lists it). */
const PendleMarket = v.object({
  chainId: v.number(),
  address: v.string(),
  simpleName: v.string(),
  protocol: o(v.string()),
  expiry: v.union([v.pipe(v.string(), v.isoTimestamp()), v.number()]),
  isActive: o(v.boolean()),
  impliedApy: v.number(),
  underlyingApy: v.number(),
  liquidity: v.nullish(v.object({ usd: v.number() })),
  tradingVolume: v.nullish(v.object({ usd: v.number() })),
  pt: v.object({ address: v.string(), price: v.nullish(v.object({ usd: v.number(), acc: o(v.number()) })) }),
  yt: v.object({ address: v.string(), price: v.nullish(v.object({ usd: v.number() })) }),
});
type PendleMarket = v.InferOutput<typeof PendleMarket>;
const MarketsPage = v.object({ total: o(v.number()), markets: v.array(PendleMarket) });
/** Pendle pages at most 100 markets; 50 pages is far past every market Pendle has listed. */
const PAGE = 100;
const MAX_PAGES = 50;

const expiryMs = (m: PendleMarket) => (typeof m.expiry === "number" ? m.expiry * 1000 : Date.parse(m.expiry));

const percent = (fraction: number) => fixed(new Decimal(fraction).times(100), 6);

export default defineEndpoint({
  name: "pt-yt-rates",
  method: "GET",
  price: "$0.01",
  summary:
    "Pendle fixed (PT) and floating (YT) yields per market: implied APY, underlying APY, PT and YT prices, liquidity, expiry",
  description:
    "From Pendle's public API (every page of its market list, the chain's markets only, expired or deactivated ones left out, deepest liquidity first). PT holders lock the implied APY until expiry; " +
    "YT holders receive the underlying yield, so underlying minus implied is the floating leg's edge at today's rates. APYs are percentages.",
  input: v.object({
    chain: v.optional(
      v.pipe(
        v.picklist(Object.keys(CHAIN_IDS)),
        v.description("Chain: ethereum, arbitrum, base, bsc, optimism, mantle, sonic, berachain, hyperevm"),
      ),
      "ethereum",
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Markets to return, 1-100")),
      25,
    ),
    market: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(64),
        v.regex(/^[A-Za-z0-9 .+_-]+$/, "a name fragment such as sUSDe, or a market address"),
        v.description("Filter: part of the market name, or its address"),
      ),
    ),
  }),
  output: v.object({
    chain: v.string(),
    chainId: v.number(),
    matched: v.number(),
    markets: v.array(
      v.object({
        address: v.string(),
        name: v.string(),
        protocol: v.nullable(v.string()),
        expiry: v.pipe(v.string(), v.description("ISO 8601")),
        daysToExpiry: v.number(),
        impliedApyPercent: v.pipe(v.string(), v.description("Fixed APY a PT buyer locks in")),
        underlyingApyPercent: v.string(),
        floatingMinusFixedPercent: v.pipe(v.string(), v.description("Underlying minus implied APY")),
        ptPriceUsd: v.nullable(v.number()),
        ptPriceInAsset: v.nullable(
          v.pipe(v.number(), v.description("PT price in the underlying asset; 1 minus it is the discount to par")),
        ),
        ytPriceUsd: v.nullable(v.number()),
        liquidityUsd: v.nullable(v.number()),
        volume24hUsd: v.nullable(v.number()),
        url: v.string(),
      }),
    ),
  }),
  example: {
    input: { chain: "ethereum", limit: 1, market: "sUSDe" },
    output: {
      chain: "ethereum",
      chainId: 1,
      matched: 1,
      markets: [
        {
          address: "0xa36b60a14a1a5247912584768c6e53e1a269a9f7",
          name: "sUSDe",
          protocol: "Ethena",
          expiry: "2025-09-25T00:00:00.000Z",
          daysToExpiry: 14,
          impliedApyPercent: "8.12",
          underlyingApyPercent: "7.55",
          floatingMinusFixedPercent: "-0.57",
          ptPriceUsd: 1.1745,
          ptPriceInAsset: 0.9969,
          ytPriceUsd: 0.0036,
          liquidityUsd: 211000000,
          volume24hUsd: 18500000,
          url: "https://app.pendle.finance/trade/markets/0xa36b60a14a1a5247912584768c6e53e1a269a9f7?chainId=1",
        },
      ],
    },
  },
  cacheTtl: 300,
  upstreams: [PENDLE],
  async handler({ input, upstream, now }) {
    const chainId = CHAIN_IDS[input.chain];
    const all: PendleMarket[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const body = await upstream(PENDLE).json("/v2/markets/all", MarketsPage, {
        query: { chainId, limit: PAGE, skip: page * PAGE },
      });
      all.push(...body.markets);
      if (body.markets.length < PAGE || (body.total !== undefined && all.length >= body.total)) break;
    }
    const nowMs = now().getTime();
    const needle = input.market?.toLowerCase();
    const matched = all
      .filter((m) => m.chainId === chainId && m.isActive !== false && expiryMs(m) > nowMs)
      .filter((m) => !needle || m.address.toLowerCase() === needle || m.simpleName.toLowerCase().includes(needle))
      .sort((a, b) => (b.liquidity?.usd ?? 0) - (a.liquidity?.usd ?? 0));
    return {
      chain: input.chain,
      chainId,
      matched: matched.length,
      markets: matched.slice(0, input.limit).map((m) => ({
        address: m.address,
        name: m.simpleName,
        protocol: m.protocol ?? null,
        expiry: new Date(expiryMs(m)).toISOString(),
        daysToExpiry: Math.floor((expiryMs(m) - nowMs) / 86_400_000),
        impliedApyPercent: percent(m.impliedApy),
        underlyingApyPercent: percent(m.underlyingApy),
        floatingMinusFixedPercent: fixed(new Decimal(m.underlyingApy).minus(m.impliedApy).times(100), 6),
        ptPriceUsd: m.pt.price?.usd ?? null,
        ptPriceInAsset: m.pt.price?.acc ?? null,
        ytPriceUsd: m.yt.price?.usd ?? null,
        liquidityUsd: m.liquidity?.usd ?? null,
        volume24hUsd: m.tradingVolume?.usd ?? null,
        url: `https://app.pendle.finance/trade/markets/${m.address}?chainId=${chainId}`,
      })),
    };
  },
});
