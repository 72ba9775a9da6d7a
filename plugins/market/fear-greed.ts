import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

const ALTERNATIVE_ME = "alternative-me";

/** What the code reads of alternative.me's /fng/: the readings (timestamps in unix seconds), or metadata.error saying why none. */
const Fng = v.object({
  data: v.optional(
    v.array(
      v.object({
        value: v.pipe(v.string(), v.regex(/^\d{1,3}$/, "not an index value")),
        value_classification: v.string(),
        timestamp: v.pipe(v.string(), v.regex(/^\d{1,12}$/, "not unix seconds")),
        time_until_update: v.optional(v.string()),
      }),
    ),
  ),
  metadata: v.object({ error: v.nullable(v.string()) }),
});

export default defineEndpoint({
  name: "fear-greed",
  method: "GET",
  price: "$0.005",
  summary: "Crypto Fear & Greed Index (0-100) with its classification, and optionally its recent history",
  description:
    "From alternative.me's Crypto Fear & Greed Index (published once a day; attribution: alternative.me). Higher means greed.",
  input: v.object({
    days: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(365),
        v.description("Daily values to return, newest first, 1-365"),
      ),
      1,
    ),
  }),
  output: v.object({
    value: v.pipe(v.number(), v.description("Today's index, 0-100")),
    classification: v.string(),
    date: v.pipe(v.string(), v.description("ISO 8601 time of the value")),
    nextUpdateInSeconds: v.nullable(v.number()),
    history: v.array(v.object({ value: v.number(), classification: v.string(), date: v.string() })),
  }),
  example: {
    input: { days: 1 },
    output: {
      value: 70,
      classification: "Greed",
      date: "2025-01-15T00:00:00.000Z",
      nextUpdateInSeconds: 43200,
      history: [{ value: 70, classification: "Greed", date: "2025-01-15T00:00:00.000Z" }],
    },
  },
  cacheTtl: 600,
  upstreams: [ALTERNATIVE_ME],
  async handler({ input, upstream }) {
    const body = await upstream(ALTERNATIVE_ME).json("/fng/", Fng, { query: { limit: input.days, format: "json" } });
    if (!body.data?.length) throw upstreamFailed(ALTERNATIVE_ME, `alternative.me: ${body.metadata.error ?? "no data"}`);
    const history = body.data.map((d) => ({
      value: Number(d.value),
      classification: d.value_classification,
      date: new Date(Number(d.timestamp) * 1000).toISOString(),
    }));
    const latest = body.data[0];
    return {
      ...history[0],
      nextUpdateInSeconds: latest.time_until_update ? Number(latest.time_until_update) : null,
      history,
    };
  },
});
