import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { COINGECKO, coinIds, marketChart, splitIds } from "./_coingecko.ts";
import { dailyChart, LLAMA_COINS } from "./_llama-coins.ts";
import { firstVenue, SourcesReport } from "./_venues.ts";

const Point = v.object({
  time: v.pipe(v.string(), v.description("ISO 8601")),
  price: v.number(),
  marketCap: v.nullable(v.number()),
  volume: v.nullable(v.number()),
});
const Series = v.object({ id: v.string(), points: v.array(Point) });
type Series = v.InferOutput<typeof Series>;

const iso = (ms: number) => new Date(ms).toISOString();

export default defineEndpoint({
  name: "crypto-history",
  method: "GET",
  price: "$0.01",
  summary: "Price, market cap and volume history of up to 5 coins over 1-365 days",
  description:
    "From CoinGecko's market_chart (hourly points up to 90 days, daily beyond). When CoinGecko fails and vs is usd, DefiLlama's daily chart answers instead " +
    "(prices only, marketCap and volume null) and sources says so. An unknown id is a 404.",
  input: v.object({
    ids: v.optional(v.pipe(coinIds(5), v.description("Comma-separated CoinGecko ids, up to 5")), "bitcoin"),
    days: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365), v.description("Days back, 1-365")),
      30,
    ),
    vs: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z]{3,5}$/, "a currency code CoinGecko quotes in, such as usd, eur, btc"),
        v.description("Quote currency"),
      ),
      "usd",
    ),
  }),
  output: v.object({ vs: v.string(), days: v.number(), series: v.array(Series), sources: SourcesReport }),
  example: {
    input: { ids: "bitcoin", days: 1, vs: "usd" },
    output: {
      vs: "usd",
      days: 1,
      series: [
        {
          id: "bitcoin",
          points: [
            { time: "2025-01-14T12:00:00.000Z", price: 96512.4, marketCap: 1911832731231.1, volume: 51234123412.2 },
          ],
        },
      ],
      sources: { answered: ["coingecko"], missing: [] },
    },
  },
  cacheTtl: 900,
  upstreams: [COINGECKO, LLAMA_COINS],
  async handler({ input, upstream, signal, now }) {
    const ids = splitIds(input.ids);
    const readers: Record<string, () => Promise<Series[]>> = {
      [COINGECKO]: () =>
        Promise.all(
          ids.map(async (id) => {
            const chart = await marketChart(upstream(COINGECKO), id, input.vs, input.days);
            return {
              id,
              points: chart.prices.map(([time, price], i) => ({
                time: iso(time),
                price,
                marketCap: chart.market_caps[i]?.[1] ?? null,
                volume: chart.total_volumes[i]?.[1] ?? null,
              })),
            };
          }),
        ),
    };
    if (input.vs === "usd") {
      const start = Math.floor(now().getTime() / 1000) - input.days * 86_400;
      readers[LLAMA_COINS] = () =>
        Promise.all(
          ids.map(async (id) => ({
            id,
            points: (await dailyChart(upstream(LLAMA_COINS), `coingecko:${id}`, start, input.days + 1)).map((p) => ({
              time: iso(p.timestamp * 1000),
              price: p.price,
              marketCap: null,
              volume: null,
            })),
          })),
        );
    }
    const { value: series, sources } = await firstVenue(readers, signal);
    return { vs: input.vs, days: input.days, series, sources };
  },
});
