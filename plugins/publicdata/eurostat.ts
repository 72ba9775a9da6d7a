import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest, notFound, ServiceError } from "../../core/runtime/errors.ts";
import { JsonStatDataset, observationsOf } from "./_sg-jsonstat.ts";

const Code = v.record(v.string(), v.string());

export default defineEndpoint({
  name: "eurostat",
  method: "GET",
  price: "$0.01",
  summary: "Eurostat statistics: any dataset by code, filtered by country, period and dimension, as tidy observations",
  description:
    "From the Eurostat Statistics API (JSON-stat 2.0, decoded here). Each observation names its dimension codes and labels, the value " +
    "(null when missing) and Eurostat's status flag (p provisional, e estimated, b break, ...). An unknown dataset, or filters that " +
    "match nothing, is a 404. Narrow big datasets with geo, filters and since/last.",
  input: v.object({
    dataset: v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9_$]{3,40}$/, "not a Eurostat dataset code"),
      v.description("Dataset code, e.g. nama_10_gdp, prc_hicp_manr, une_rt_m"),
    ),
    geo: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9_]{2,12}(,[A-Za-z0-9_]{2,12}){0,29}$/, "comma-separated geo codes"),
        v.description("Countries or regions, comma-separated, e.g. DE,FR,EU27_2020"),
      ),
    ),
    filters: v.optional(
      v.pipe(
        v.string(),
        v.regex(
          /^[a-z_0-9]{1,30}=[A-Za-z0-9_.-]{1,40}(;[a-z_0-9]{1,30}=[A-Za-z0-9_.-]{1,40}){0,9}$/,
          "dimension=code pairs separated by ;",
        ),
        v.description("Other dimensions, e.g. unit=CP_MEUR;na_item=B1GQ"),
      ),
    ),
    since: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{4}(-?(M\d{2}|Q\d|S\d|W\d{2}|\d{2}))?$/, "not a Eurostat period"),
        v.description("First period, e.g. 2015 or 2023-01"),
      ),
    ),
    last: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Only the last N periods")),
    ),
    lang: v.optional(v.pipe(v.picklist(["EN", "FR", "DE"]), v.description("Language of the labels")), "EN"),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2000), v.description("Most observations returned")),
      500,
    ),
  }),
  output: v.object({
    dataset: v.string(),
    title: v.string(),
    updated: v.pipe(v.nullable(v.string()), v.description("Last update of the dataset, ISO 8601")),
    dimensions: v.array(v.object({ id: v.string(), label: v.string(), size: v.number() })),
    total: v.pipe(v.number(), v.description("Observations in the answer before the limit")),
    observations: v.array(
      v.object({
        key: Code,
        labels: Code,
        value: v.nullable(v.number()),
        status: v.pipe(v.nullable(v.string()), v.description("Eurostat flag")),
      }),
    ),
    url: v.pipe(v.string(), v.description("The dataset in Eurostat's data browser")),
  }),
  example: {
    input: { dataset: "nama_10_gdp", geo: "DE", filters: "unit=CP_MEUR;na_item=B1GQ", last: 1 },
    output: {
      dataset: "nama_10_gdp",
      title: "Gross domestic product (GDP) and main components (output, expenditure and income)",
      updated: "2025-01-10T22:00:00.000Z",
      dimensions: [
        { id: "freq", label: "Time frequency", size: 1 },
        { id: "unit", label: "Unit of measure", size: 1 },
        { id: "na_item", label: "National accounts indicator (ESA 2010)", size: 1 },
        { id: "geo", label: "Geopolitical entity (reporting)", size: 1 },
        { id: "time", label: "Time", size: 1 },
      ],
      total: 1,
      observations: [
        {
          key: { freq: "A", unit: "CP_MEUR", na_item: "B1GQ", geo: "DE", time: "2023" },
          labels: {
            freq: "Annual",
            unit: "Current prices, million euro",
            na_item: "Gross domestic product at market prices",
            geo: "Germany",
            time: "2023",
          },
          value: 4185550,
          status: "p",
        },
      ],
      url: "https://ec.europa.eu/eurostat/databrowser/view/nama_10_gdp/default/table",
    },
  },
  cacheTtl: 12 * 3600,
  upstreams: ["eurostat"],
  async handler({ input, upstream }) {
    const params = new URLSearchParams({ format: "JSON", lang: input.lang });
    for (const geo of input.geo?.split(",") ?? []) params.append("geo", geo);
    for (const pair of input.filters?.split(";") ?? []) params.append(...(pair.split("=") as [string, string]));
    if (input.since) params.append("sinceTimePeriod", input.since);
    if (input.last) params.append("lastTimePeriod", String(input.last));
    const ds = await upstream("eurostat")
      .json(`/data/${input.dataset}?${params}`, JsonStatDataset, { notFoundAs404: true, keepErrorBody: true })
      .catch(refusal);
    const observations = observationsOf(ds);
    return {
      dataset: input.dataset,
      title: ds.label ?? input.dataset,
      updated: ds.updated ? new Date(ds.updated).toISOString() : null,
      dimensions: ds.id.map((id, i) => ({ id, label: ds.dimension[id].label ?? id, size: ds.size[i] })),
      total: observations.length,
      observations: observations.slice(0, input.limit),
      url: `https://ec.europa.eu/eurostat/databrowser/view/${input.dataset}/default/table`,
    };
  },
});

/** Eurostat explains a 400 in its body: fault 100 is "no results", 140/150 a query it cannot answer. */
function refusal(error: unknown): never {
  const details =
    error instanceof ServiceError ? (error.details as { status?: number; body?: any } | undefined) : undefined;
  if (details?.status !== 400) throw error;
  const fault = [details.body?.error].flat()[0] as { id?: number | string; label?: string } | undefined;
  if (Number(fault?.id) === 100 || /no results/i.test(fault?.label ?? ""))
    throw notFound("Eurostat has no data for these filters");
  throw badRequest(`Eurostat refused the query: ${fault?.label ?? "bad request"}`);
}
