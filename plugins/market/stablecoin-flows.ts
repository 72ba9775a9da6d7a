import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Decimal, fixed } from "./_decimal.ts";
import { LLAMA_STABLES, peggedAssets, stablecoinUrl, supply } from "./_stablecoins.ts";

const change = (now: number | null, before: number | null) =>
  now === null || before === null ? null : fixed(new Decimal(now).minus(before), 2);

export default defineEndpoint({
  name: "stablecoin-flows",
  method: "GET",
  price: "$0.01",
  summary: "Net mint and burn of the largest USD stablecoins over 1, 7 and 30 days, and the totals",
  description:
    "From DefiLlama's stablecoin data (updated about hourly): circulating supply now against a day, a week and a month ago, in USD.",
  input: v.object({
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(100),
        v.description("Stablecoins to list by circulating supply, 1-100"),
      ),
      20,
    ),
  }),
  output: v.object({
    total: v.object({
      circulatingUsd: v.string(),
      change1dUsd: v.string(),
      change7dUsd: v.string(),
      change30dUsd: v.string(),
    }),
    stablecoins: v.array(
      v.object({
        id: v.string(),
        name: v.string(),
        symbol: v.string(),
        circulatingUsd: v.number(),
        change1dUsd: v.nullable(v.string()),
        change7dUsd: v.nullable(v.string()),
        change30dUsd: v.nullable(v.string()),
        url: v.string(),
      }),
    ),
  }),
  example: {
    input: { limit: 1 },
    output: {
      total: {
        circulatingUsd: "205123456789.12",
        change1dUsd: "312345678.9",
        change7dUsd: "1234567890.12",
        change30dUsd: "4123456789",
      },
      stablecoins: [
        {
          id: "1",
          name: "Tether",
          symbol: "USDT",
          circulatingUsd: 138123456789.12,
          change1dUsd: "200000000",
          change7dUsd: "1000000000",
          change30dUsd: "3000000000",
          url: "https://defillama.com/stablecoin/1",
        },
      ],
    },
  },
  cacheTtl: 1800,
  upstreams: [LLAMA_STABLES],
  async handler({ input, upstream }) {
    const rows = (await peggedAssets(upstream(LLAMA_STABLES)))
      .filter((a) => a.pegType === "peggedUSD" && supply(a.circulating, a.pegType) !== null)
      .map((a) => {
        const now = supply(a.circulating, a.pegType) as number;
        return {
          id: a.id,
          name: a.name,
          symbol: a.symbol,
          circulatingUsd: now,
          change1dUsd: change(now, supply(a.circulatingPrevDay, a.pegType)),
          change7dUsd: change(now, supply(a.circulatingPrevWeek, a.pegType)),
          change30dUsd: change(now, supply(a.circulatingPrevMonth, a.pegType)),
          url: stablecoinUrl(a.id),
        };
      })
      .sort((a, b) => b.circulatingUsd - a.circulatingUsd);
    const sum = (pick: (r: (typeof rows)[number]) => string | number | null) =>
      fixed(
        rows.reduce((s, r) => s.plus(pick(r) ?? 0), new Decimal(0)),
        2,
      );
    return {
      total: {
        circulatingUsd: sum((r) => r.circulatingUsd),
        change1dUsd: sum((r) => r.change1dUsd),
        change7dUsd: sum((r) => r.change7dUsd),
        change30dUsd: sum((r) => r.change30dUsd),
      },
      stablecoins: rows.slice(0, input.limit),
    };
  },
});
