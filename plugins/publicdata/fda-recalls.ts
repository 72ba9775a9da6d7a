import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fdaDay, openFda, phrase, toFdaDay } from "./_sg-openfda.ts";

const o = v.optional;
/** What the code reads of an openFDA enforcement report. */
const Enforcement = v.object({
  recall_number: v.string(),
  event_id: v.string(),
  status: v.string(),
  classification: v.string(),
  product_type: v.string(),
  recalling_firm: v.string(),
  product_description: v.string(),
  reason_for_recall: v.string(),
  product_quantity: o(v.string()),
  code_info: o(v.string()),
  distribution_pattern: o(v.string()),
  voluntary_mandated: o(v.string()),
  report_date: v.string(),
  recall_initiation_date: o(v.string()),
  termination_date: o(v.string()),
  city: o(v.string()),
  state: o(v.string()),
  country: o(v.string()),
});

const products = {
  food: "/food/enforcement.json",
  drug: "/drug/enforcement.json",
  device: "/device/enforcement.json",
} as const;

export default defineEndpoint({
  name: "fda-recalls",
  method: "GET",
  price: "$0.05",
  summary:
    "US FDA recall enforcement reports for food, drugs or devices: firm, product, reason, class, status and dates",
  description:
    "From openFDA's enforcement reports (public domain; updated weekly). Newest reports first. Class I is the most serious (a reasonable " +
    "chance of serious harm). FDA does not update a recall's status after classification, so `status` may lag. No match is an empty list.",
  input: v.object({
    type: v.optional(v.pipe(v.picklist(["food", "drug", "device"]), v.description("Product type")), "food"),
    q: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(100),
        v.regex(/^[A-Za-z0-9 .,'&-]+$/, "letters, digits, spaces and . , ' & - only"),
        v.description("Words in the product, reason or firm, e.g. listeria"),
      ),
    ),
    firm: v.optional(
      v.pipe(
        v.string(),
        v.minLength(2),
        v.maxLength(100),
        v.regex(/^[A-Za-z0-9 .,'&-]+$/, "not a firm name"),
        v.description("Recalling firm"),
      ),
    ),
    classification: v.optional(v.pipe(v.picklist(["I", "II", "III"]), v.description("Recall class"))),
    since: v.optional(v.pipe(v.string(), v.isoDate(), v.description("Reported on or after, YYYY-MM-DD"))),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Most reports")),
      20,
    ),
  }),
  output: v.object({
    total: v.pipe(v.number(), v.description("Reports matched")),
    updated: v.pipe(v.nullable(v.string()), v.description("When openFDA last refreshed the data, YYYY-MM-DD")),
    recalls: v.array(
      v.object({
        id: v.pipe(v.string(), v.description("FDA recall number")),
        eventId: v.string(),
        status: v.string(),
        classification: v.string(),
        productType: v.string(),
        firm: v.string(),
        product: v.string(),
        reason: v.string(),
        quantity: v.nullable(v.string()),
        codeInfo: v.nullable(v.string()),
        distribution: v.nullable(v.string()),
        voluntary: v.nullable(v.string()),
        reportDate: v.nullable(v.string()),
        initiated: v.nullable(v.string()),
        terminated: v.nullable(v.string()),
        location: v.object({
          city: v.nullable(v.string()),
          state: v.nullable(v.string()),
          country: v.nullable(v.string()),
        }),
        url: v.pipe(v.string(), v.description("The record in openFDA")),
      }),
    ),
  }),
  example: {
    input: { type: "food", q: "listeria", classification: "I", limit: 1 },
    output: {
      total: 1436,
      updated: "2025-01-08",
      recalls: [
        {
          id: "F-0287-2025",
          eventId: "95613",
          status: "Ongoing",
          classification: "Class I",
          productType: "Food",
          firm: "Yu Shang Food, Inc.",
          product: "Enoki mushrooms, 200 g (7.05 oz) plastic package, UPC 8 809453 200013",
          reason: "Product has the potential to be contaminated with Listeria monocytogenes",
          quantity: "1,440 packages",
          codeInfo: "Best before 2025-01-20",
          distribution: "CA, NV, AZ",
          voluntary: "Voluntary: Firm initiated",
          reportDate: "2025-01-08",
          initiated: "2024-11-27",
          terminated: null,
          location: { city: "Manassas", state: "VA", country: "United States" },
          url: 'https://api.fda.gov/food/enforcement.json?search=recall_number:"F-0287-2025"',
        },
      ],
    },
  },
  cacheTtl: 12 * 3600,
  upstreams: ["openfda"],
  async handler({ input, upstream }) {
    const terms = [
      ...(input.q ?? "")
        .split(/\s+/)
        .filter(Boolean)
        .map((word) => phrase(word)),
      input.firm && `recalling_firm:${phrase(input.firm)}`,
      input.classification && `classification:"Class ${input.classification}"`,
      input.since && `report_date:[${toFdaDay(input.since)} TO 29991231]`,
    ].filter(Boolean);
    const query = {
      ...(terms.length ? { search: terms.join(" AND ") } : {}),
      sort: "report_date:desc",
      limit: input.limit,
    };
    const answer = await openFda(upstream("openfda"), products[input.type], Enforcement, query);
    const text = (value?: string) => value?.trim() || null;
    return {
      total: answer.meta?.results?.total ?? 0,
      updated: answer.meta?.last_updated ?? null,
      recalls: answer.results.map((r) => ({
        id: r.recall_number,
        eventId: r.event_id,
        status: r.status,
        classification: r.classification,
        productType: r.product_type,
        firm: r.recalling_firm,
        product: r.product_description,
        reason: r.reason_for_recall,
        quantity: text(r.product_quantity),
        codeInfo: text(r.code_info),
        distribution: text(r.distribution_pattern),
        voluntary: text(r.voluntary_mandated),
        reportDate: fdaDay(r.report_date),
        initiated: fdaDay(r.recall_initiation_date),
        terminated: fdaDay(r.termination_date),
        location: { city: text(r.city), state: text(r.state), country: text(r.country) },
        url: `https://api.fda.gov${products[input.type]}?search=recall_number:"${r.recall_number}"`,
      })),
    };
  },
});
