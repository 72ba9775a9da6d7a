import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { LLAMA_STABLES, peggedAssets, stablecoinUrl, supply } from "./_stablecoins.ts";

export default defineEndpoint({
  name: "depeg",
  method: "GET",
  price: "$0.005",
  summary: "USD stablecoins trading further from $1 than a threshold, by deviation",
  description:
    "From DefiLlama's stablecoin data (prices about hourly). USD-pegged coins with at least minCirculating USD in circulation are checked; " +
    "coins without a price are counted under unpriced. Deviation in basis points, decimal arithmetic.",
  input: v.object({
    thresholdBps: v.optional(
      v.pipe(
        v.number(),
        v.minValue(1),
        v.maxValue(10_000),
        v.description("Deviation from $1 that counts, basis points (50 = 0.5 %)"),
      ),
      50,
    ),
    minCirculating: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(1e13), v.description("Minimum circulating supply, USD")),
      10_000_000,
    ),
  }),
  output: v.object({
    thresholdBps: v.number(),
    checked: v.number(),
    unpriced: v.number(),
    depegged: v.array(
      v.object({
        id: v.string(),
        name: v.string(),
        symbol: v.string(),
        price: v.number(),
        deviationBps: v.pipe(v.string(), v.description("(price - 1) x 10,000")),
        circulatingUsd: v.number(),
        pegMechanism: v.string(),
        url: v.string(),
      }),
    ),
  }),
  example: {
    input: { thresholdBps: 50, minCirculating: 10_000_000 },
    output: {
      thresholdBps: 50,
      checked: 64,
      unpriced: 2,
      depegged: [
        {
          id: "129",
          name: "USDX Money USDX",
          symbol: "USDX",
          price: 0.9712,
          deviationBps: "-288",
          circulatingUsd: 41234567,
          pegMechanism: "crypto-backed",
          url: "https://defillama.com/stablecoin/129",
        },
      ],
    },
  },
  cacheTtl: 300,
  upstreams: [LLAMA_STABLES],
  async handler({ input, upstream }) {
    const usd = (await peggedAssets(upstream(LLAMA_STABLES))).filter(
      (a) => a.pegType === "peggedUSD" && (supply(a.circulating, a.pegType) ?? 0) >= input.minCirculating,
    );
    const priced = usd.filter((a) => typeof a.price === "number");
    const depegged = priced
      .map((a) => ({ a, bps: new Decimal(a.price as number).minus(1).times(10_000) }))
      .filter(({ bps }) => bps.abs().gte(input.thresholdBps))
      .sort((x, y) => y.bps.abs().comparedTo(x.bps.abs()))
      .map(({ a, bps }) => ({
        id: a.id,
        name: a.name,
        symbol: a.symbol,
        price: a.price as number,
        deviationBps: fixed(bps, 2),
        circulatingUsd: supply(a.circulating, a.pegType) as number,
        pegMechanism: a.pegMechanism,
        url: stablecoinUrl(a.id),
      }));
    return { thresholdBps: input.thresholdBps, checked: priced.length, unpriced: usd.length - priced.length, depegged };
  },
});
