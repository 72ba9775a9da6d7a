import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { limit } from "./_pr-inputs.ts";
import { licence, pageUrl, RestPage } from "./_pr-wikipedia.ts";

const kinds = ["selected", "events", "births", "deaths", "holidays"] as const;
/** What the code reads of the feed: the list asked for, always present (empty when the day has none). */
const Entry = v.object({ text: v.string(), year: v.optional(v.number()), pages: v.optional(v.array(RestPage)) });

export default defineEndpoint({
  name: "on-this-day",
  method: "GET",
  price: "$0.01",
  summary:
    "What happened on a calendar day: selected events, events, births, deaths or holidays, from English Wikipedia",
  description:
    "From the Wikimedia REST feed `onthisday`. `selected` is the editors' short list; the others are longer. Entries come in Wikipedia's order (newest year first for events, births and deaths), each with the linked articles. Holidays have no year. Text CC BY-SA 4.0.",
  input: v.object({
    month: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(12),
        v.description("Month 1-12; defaults to today's (UTC)"),
      ),
    ),
    day: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(31),
        v.description("Day of the month; defaults to today's (UTC)"),
      ),
    ),
    type: v.optional(v.pipe(v.picklist(kinds), v.description("Which list")), "selected"),
    limit: limit(100, 20, "entries"),
  }),
  output: v.object({
    month: v.number(),
    day: v.number(),
    type: v.picklist(kinds),
    count: v.number(),
    entries: v.array(
      v.object({
        year: v.nullable(v.number()),
        text: v.string(),
        pages: v.array(v.object({ title: v.string(), description: v.nullable(v.string()), url: v.string() })),
      }),
    ),
    licence: v.string(),
  }),
  example: {
    input: { month: 7, day: 20, type: "selected", limit: 1 },
    output: {
      month: 7,
      day: 20,
      type: "selected",
      count: 1,
      entries: [
        {
          year: 1969,
          text: "Apollo program: Apollo 11's crew successfully made the first crewed landing on the Moon.",
          pages: [
            {
              title: "Apollo program",
              description: "1961–1972 American crewed lunar exploration program",
              url: "https://en.wikipedia.org/wiki/Apollo_program",
            },
            {
              title: "Apollo 11",
              description: "First crewed Moon landing (1969)",
              url: "https://en.wikipedia.org/wiki/Apollo_11",
            },
          ],
        },
      ],
      licence,
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["wikipedia"],
  async handler({ input, upstream, now }) {
    const today = now();
    const month = input.month ?? today.getUTCMonth() + 1;
    const day = input.day ?? today.getUTCDate();
    if (day > new Date(Date.UTC(2024, month, 0)).getUTCDate())
      throw fieldError("day", `month ${month} has no day ${day}`);
    const pad = (n: number) => String(n).padStart(2, "0");
    const feed = await upstream("wikipedia").json(
      `/feed/onthisday/${input.type}/${pad(month)}/${pad(day)}`,
      v.object({ [input.type]: v.array(Entry) }),
    );
    const entries = feed[input.type].slice(0, input.limit).map((e) => ({
      year: e.year ?? null,
      text: e.text,
      pages: (e.pages ?? []).map((p) => ({
        title: p.title.replace(/_/g, " "),
        description: p.description ?? null,
        url: pageUrl(p),
      })),
    }));
    return { month, day, type: input.type, count: entries.length, entries, licence };
  },
});
