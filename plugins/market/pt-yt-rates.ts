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
/** What the code reads of a Pendle market (`expiry` an ISO timestamp read into a Date). */
const PendleMarket = v.object({
  address: v.string(),
  simpleName: v.string(),
  protocol: o(v.string()),
  expiry: v.pipe(v.string(), v.isoTimestamp()),
  impliedApy: v.number(),
  underlyingApy: v.number(),
  liquidity: v.nullish(v.object({ usd: v.number() })),
  tradingVolume: v.nullish(v.object({ usd: v.number() })),
  pt: v.object({ address: v.string(), price: v.nullish(v.object({ usd: v.number(), acc: o(v.number()) })) }),
  yt: v.object({ address: v.string(), price: v.nullish(v.object({ usd: v.number() })) }),
});

const percent = (fraction: number) => fixed(new Decimal(fraction).times(100), 6);

export default defineEndpoint({
  name: "pt-yt-rates",
  method: "GET",
  price: "$0.01",
  summary:
    "Pendle fixed (PT) and floating (YT) yields per market: implied APY, underlying APY, PT and YT prices, liquidity, expiry",
  description:
    "From Pendle's public API (one page of up to 100 markets of the chain, expired ones left out, deepest liquidity first). PT holders lock the implied APY until expiry; " +
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
          address: "0xb162b764044697cf03617c2efbcb1f42e31e4766",
          name: "sUSDe",
          protocol: "Ethena",
          expiry: "2025-03-27T00:00:00.000Z",
          daysToExpiry: 70,
          impliedApyPercent: "17.81",
          underlyingApyPercent: "11.12",
          floatingMinusFixedPercent: "-6.69",
          ptPriceUsd: 0.9705,
          ptPriceInAsset: 0.9698,
          ytPriceUsd: 0.0302,
          liquidityUsd: 385000000,
          volume24hUsd: 41000000,
          url: "https://app.pendle.finance/trade/markets/0xb162b764044697cf03617c2efbcb1f42e31e4766?chainId=1",
        },
      ],
    },
  },
  cacheTtl: 300,
  upstreams: [PENDLE],
  async handler({ input, upstream, now }) {
    const chainId = CHAIN_IDS[input.chain];
    const body = await upstream(PENDLE).json(`/v1/${chainId}/markets`, v.object({ results: v.array(PendleMarket) }), {
      query: { limit: 100, skip: 0 },
    });
    const nowMs = now().getTime();
    const needle = input.market?.toLowerCase();
    const matched = body.results
      .filter((m) => Date.parse(m.expiry) > nowMs)
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
        expiry: new Date(m.expiry).toISOString(),
        daysToExpiry: Math.floor((Date.parse(m.expiry) - nowMs) / 86_400_000),
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
