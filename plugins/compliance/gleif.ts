import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { GleifRecord, isLei, leiRecord, LeiRecord } from "./_gleif.ts";

const GleifList = v.object({
  meta: v.nullish(v.object({ pagination: v.nullish(v.object({ total: v.nullish(v.number()) })) })),
  data: v.array(GleifRecord),
});

export default defineEndpoint({
  name: "gleif",
  method: "GET",
  price: "$0.01",
  summary: "Legal Entity Identifier (LEI) records from GLEIF: search by company name or look up an LEI",
  description:
    "From the GLEIF API (Global LEI Index, CC0). A `q` that is a valid LEI (ISO 17442 check digits) is looked up exactly; anything else is a full-text search over names. Each record has the legal name, entity and registration status, jurisdiction, legal form, addresses, renewal date and managing LOU.",
  input: v.object({
    q: v.pipe(
      v.string(),
      v.minLength(2),
      v.maxLength(200),
      v.description("Company name to search, or a 20-character LEI"),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("Most records to return (1-50)")),
      10,
    ),
  }),
  output: v.object({
    query: v.string(),
    match: v.pipe(v.picklist(["lei", "fulltext"]), v.description("lei: q was an LEI looked up exactly")),
    total: v.pipe(v.number(), v.description("Records GLEIF found (the answer holds the first `limit`)")),
    records: v.array(LeiRecord),
  }),
  example: {
    input: { q: "5493001KJTIIGC8Y1R12" },
    output: {
      query: "5493001KJTIIGC8Y1R12",
      match: "lei",
      total: 1,
      records: [
        {
          lei: "5493001KJTIIGC8Y1R12",
          legalName: "Bloomberg Finance L.P.",
          otherNames: [],
          entityStatus: "ACTIVE",
          registrationStatus: "ISSUED",
          category: "GENERAL",
          jurisdiction: "US-DE",
          legalFormId: "T91T",
          registeredAs: "2650053",
          legalAddress: {
            lines: ["C/O The Corporation Trust Company", "1209 Orange Street"],
            city: "Wilmington",
            region: "US-DE",
            country: "US",
            postalCode: "19801",
          },
          headquartersAddress: {
            lines: ["731 Lexington Avenue"],
            city: "New York",
            region: "US-NY",
            country: "US",
            postalCode: "10022",
          },
          initialRegistrationDate: "2012-06-06T15:53:00Z",
          lastUpdateDate: "2026-06-10T20:42:02Z",
          nextRenewalDate: "2027-06-14T19:15:07Z",
          managingLou: "EVK05KS7XY1DEII3R011",
          bic: [],
          url: "https://search.gleif.org/#/record/5493001KJTIIGC8Y1R12",
        },
      ],
    },
  },
  cacheTtl: 6 * 3600,
  upstreams: ["gleif"],
  async handler({ input, upstream }) {
    const api = upstream("gleif");
    const q = input.q.trim();
    if (isLei(q.toUpperCase())) {
      const one = await api.json(`/lei-records/${q.toUpperCase()}`, v.object({ data: GleifRecord }), {
        notFoundAs404: true,
      });
      return { query: input.q, match: "lei" as const, total: 1, records: [leiRecord(one.data)] };
    }
    const found = await api.json("/lei-records", GleifList, {
      query: { "filter[fulltext]": q, "page[size]": input.limit, "page[number]": 1 },
    });
    const records = found.data.slice(0, input.limit).map(leiRecord);
    return {
      query: input.q,
      match: "fulltext" as const,
      total: found.meta?.pagination?.total ?? records.length,
      records,
    };
  },
});
