import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";

/** What the code reads of one university in Hipo's search answer. */
const HipoUniversity = v.object({
  name: v.string(),
  country: v.string(),
  alpha_two_code: v.string(),
  "state-province": v.nullable(v.string()),
  domains: v.array(v.string()),
  web_pages: v.array(v.string()),
});

export default defineEndpoint({
  name: "universities",
  method: "GET",
  price: "$0.01",
  summary: "Universities worldwide by name and country, with their web domains and home pages",
  description:
    "From the Hipo university-domains-list (MIT licence) as served by universities.hipolabs.com. `name` matches any part of the name, " +
    "`country` is the English country name (United Kingdom, Turkey); give at least one. Sorted by name. No match answers an empty list. " +
    "For identifiers, addresses and relationships use /v1/ror.",
  input: v.object({
    name: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(100), v.description("Part of the name, e.g. technology")),
    ),
    country: v.optional(
      v.pipe(
        v.string(),
        v.minLength(3),
        v.maxLength(60),
        v.regex(/^[A-Za-zÀ-ÿ .,'()-]+$/, "not a country name"),
        v.description("English country name, e.g. Portugal"),
      ),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description("Most universities returned")),
      50,
    ),
  }),
  output: v.object({
    total: v.pipe(v.number(), v.description("Universities matched")),
    universities: v.array(
      v.object({
        name: v.string(),
        country: v.string(),
        countryCode: v.pipe(v.string(), v.description("ISO 3166 alpha-2")),
        region: v.pipe(v.nullable(v.string()), v.description("State or province, when listed")),
        domains: v.array(v.string()),
        url: v.pipe(v.nullable(v.string()), v.description("Home page")),
        webPages: v.array(v.string()),
      }),
    ),
  }),
  example: {
    input: { name: "Massachusetts Institute of Technology" },
    output: {
      total: 1,
      universities: [
        {
          name: "Massachusetts Institute of Technology",
          country: "United States",
          countryCode: "US",
          region: null,
          domains: ["mit.edu"],
          url: "http://web.mit.edu/",
          webPages: ["http://web.mit.edu/"],
        },
      ],
    },
  },
  cacheTtl: 7 * 24 * 3600,
  upstreams: ["hipolabs"],
  async handler({ input, upstream }) {
    if (!input.name && !input.country)
      throw badRequest("give name or country", { issues: [{ field: "name", message: "give name, country or both" }] });
    const found = await upstream("hipolabs").json("/search", v.array(HipoUniversity), {
      query: { name: input.name, country: input.country },
    });
    const sorted = [...found].sort((a, b) => a.name.localeCompare(b.name));
    return {
      total: sorted.length,
      universities: sorted.slice(0, input.limit).map((u) => ({
        name: u.name,
        country: u.country,
        countryCode: u.alpha_two_code,
        region: u["state-province"],
        domains: u.domains,
        url: u.web_pages[0] ?? null,
        webPages: u.web_pages,
      })),
    };
  },
});
