import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, ServiceError } from "../../core/runtime/errors.ts";

/** What the code reads of a spending_by_award page: flat rows keyed by the fields asked for. */
const AwardRow = v.objectWithRest({ generated_internal_id: v.string() }, v.nullable(v.union([v.string(), v.number()])));
type AwardRow = v.InferOutput<typeof AwardRow>;
const AwardPage = v.object({
  results: v.array(AwardRow),
  page_metadata: v.object({ page: v.number(), hasNext: v.boolean() }),
});

/** USAspending searches one award-type group at a time. */
const typeCodes = {
  contracts: ["A", "B", "C", "D"],
  grants: ["02", "03", "04", "05"],
  "direct-payments": ["06", "10"],
  other: ["09", "11", "-1"],
} as const;
const firstDay = "2007-10-01";
const isoDay = v.pipe(v.string(), v.isoDate());

export default defineEndpoint({
  name: "usaspending",
  method: "GET",
  price: "$0.01",
  summary:
    "US federal contracts, grants and payments: search awards by keyword, recipient, agency and date, largest first",
  description:
    "From USAspending.gov (API v2, public domain). One award group per call (contracts by default). Awards whose period overlaps from..to " +
    "(default: since 2007-10-01, USAspending's first day, to today), largest amount first. Amounts are US dollars as USAspending gives them. " +
    "No match answers an empty list.",
  input: v.object({
    q: v.optional(v.pipe(v.string(), v.minLength(3), v.maxLength(200), v.description("Keywords, e.g. hypersonic"))),
    recipient: v.optional(
      v.pipe(
        v.string(),
        v.minLength(3),
        v.maxLength(120),
        v.description("Recipient name or UEI, e.g. Lockheed Martin"),
      ),
    ),
    agency: v.optional(
      v.pipe(
        v.string(),
        v.minLength(3),
        v.maxLength(120),
        v.description("Awarding top-tier agency, e.g. Department of Defense"),
      ),
    ),
    type: v.optional(
      v.pipe(v.picklist(["contracts", "grants", "direct-payments", "other"]), v.description("Award group")),
      "contracts",
    ),
    from: v.optional(v.pipe(isoDay, v.description("First day, YYYY-MM-DD (not before 2007-10-01)"))),
    to: v.optional(v.pipe(isoDay, v.description("Last day, YYYY-MM-DD"))),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Awards per page")),
      10,
    ),
    page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Result page")), 1),
  }),
  output: v.object({
    page: v.number(),
    hasNext: v.pipe(v.boolean(), v.description("Another page follows")),
    awards: v.array(
      v.object({
        id: v.pipe(v.string(), v.description("USAspending's award id (generated_internal_id)")),
        awardId: v.pipe(v.nullable(v.string()), v.description("PIID or FAIN")),
        recipient: v.nullable(v.string()),
        amount: v.pipe(v.nullable(v.number()), v.description("US dollars")),
        agency: v.nullable(v.string()),
        subAgency: v.nullable(v.string()),
        type: v.nullable(v.string()),
        start: v.pipe(v.nullable(v.string()), v.description("YYYY-MM-DD")),
        end: v.nullable(v.string()),
        description: v.nullable(v.string()),
        url: v.string(),
      }),
    ),
  }),
  example: {
    input: { q: "hypersonic", agency: "Department of Defense", from: "2023-10-01", to: "2024-09-30", limit: 1 },
    output: {
      page: 1,
      hasNext: true,
      awards: [
        {
          id: "CONT_AWD_HQ085922C0001_9700_-NONE-_-NONE-",
          awardId: "HQ085922C0001",
          recipient: "LOCKHEED MARTIN CORPORATION",
          amount: 2310000000,
          agency: "Department of Defense",
          subAgency: "Missile Defense Agency",
          type: "DEFINITIVE CONTRACT",
          start: "2022-03-01",
          end: "2027-09-30",
          description: "GLIDE PHASE INTERCEPTOR (GPI) PROGRAM",
          url: "https://www.usaspending.gov/award/CONT_AWD_HQ085922C0001_9700_-NONE-_-NONE-",
        },
      ],
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["usaspending"],
  async handler({ input, upstream, now }) {
    const from = input.from ?? firstDay;
    const to = input.to ?? now().toISOString().slice(0, 10);
    if (from < firstDay || from > to)
      throw badRequest("from must be on or after 2007-10-01 and not after to", {
        issues: [{ field: "from", message: "out of range" }],
      });
    const typeField = input.type === "contracts" ? "Contract Award Type" : "Award Type";
    const filters = {
      award_type_codes: typeCodes[input.type],
      time_period: [{ start_date: from, end_date: to }],
      keywords: input.q ? [input.q] : undefined,
      recipient_search_text: input.recipient ? [input.recipient] : undefined,
      agencies: input.agency ? [{ type: "awarding", tier: "toptier", name: input.agency }] : undefined,
    };
    const fields = [
      "Award ID",
      "Recipient Name",
      "Award Amount",
      "Awarding Agency",
      "Awarding Sub Agency",
      typeField,
      "Start Date",
      "End Date",
      "Description",
    ];
    const answer = await upstream("usaspending")
      .json("/search/spending_by_award/", AwardPage, {
        method: "POST",
        body: { filters, fields, limit: input.limit, page: input.page, sort: "Award Amount", order: "desc" },
        keepErrorBody: true,
      })
      .catch(refusal);
    const text = (row: AwardRow, field: string) =>
      row[field] === null || row[field] === undefined ? null : String(row[field]);
    return {
      page: answer.page_metadata.page,
      hasNext: answer.page_metadata.hasNext,
      awards: answer.results.map((row) => ({
        id: row.generated_internal_id,
        awardId: text(row, "Award ID"),
        recipient: text(row, "Recipient Name"),
        amount: typeof row["Award Amount"] === "number" ? row["Award Amount"] : null,
        agency: text(row, "Awarding Agency"),
        subAgency: text(row, "Awarding Sub Agency"),
        type: text(row, typeField),
        start: text(row, "Start Date"),
        end: text(row, "End Date"),
        description: text(row, "Description"),
        url: `https://www.usaspending.gov/award/${encodeURIComponent(row.generated_internal_id)}`,
      })),
    };
  },
});

/** USAspending explains a filter it refuses (an unknown agency, a bad keyword) in `detail`. */
function refusal(error: unknown): never {
  const details =
    error instanceof ServiceError ? (error.details as { status?: number; body?: any } | undefined) : undefined;
  if (details?.status !== 400 && details?.status !== 422) throw error;
  throw badRequest(`USAspending refused the query: ${details.body?.detail ?? "invalid filters"}`);
}
