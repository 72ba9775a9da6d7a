import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

/** What the code reads of the npm downloads API's point answer. */
const Point = v.object({ downloads: v.number(), start: v.string(), end: v.string() });

const periods = { lastDay: "last-day", lastWeek: "last-week", lastMonth: "last-month" } as const;
const Period = v.object({
  downloads: v.number(),
  start: v.pipe(v.string(), v.description("First day counted, YYYY-MM-DD (UTC)")),
  end: v.pipe(v.string(), v.description("Last day counted, YYYY-MM-DD (UTC)")),
});

export default defineEndpoint({
  name: "npm-stats",
  method: "GET",
  price: "$0.005",
  summary: "Downloads of an npm package over the last day, week and month",
  description:
    "From npm's download counts API (api.npmjs.org/downloads/point). Counts are per UTC day and lag about a day. An unknown package is a 404.",
  input: v.object({
    package: v.pipe(
      v.string(),
      v.maxLength(214),
      v.regex(/^(@[a-z0-9][\w.~-]*\/)?[A-Za-z0-9][\w.~-]*$/, "not a valid npm package name"),
      v.description("npm package name, e.g. react or @types/node"),
    ),
  }),
  output: v.object({ package: v.string(), lastDay: Period, lastWeek: Period, lastMonth: Period }),
  example: {
    input: { package: "left-pad" },
    output: {
      package: "left-pad",
      lastDay: { downloads: 412_307, start: "2025-01-14", end: "2025-01-14" },
      lastWeek: { downloads: 2_652_210, start: "2025-01-08", end: "2025-01-14" },
      lastMonth: { downloads: 10_941_578, start: "2024-12-16", end: "2025-01-14" },
    },
  },
  cacheTtl: 6 * 3600,
  upstreams: ["npm-downloads"],
  async handler({ input, upstream }) {
    const api = upstream("npm-downloads");
    const [lastDay, lastWeek, lastMonth] = await Promise.all(
      Object.values(periods).map((period) =>
        api.json(`/point/${period}/${input.package}`, Point, { notFoundAs404: true }),
      ),
    );
    const pick = ({ downloads, start, end }: v.InferOutput<typeof Point>) => ({ downloads, start, end });
    return { package: input.package, lastDay: pick(lastDay), lastWeek: pick(lastWeek), lastMonth: pick(lastMonth) };
  },
});
