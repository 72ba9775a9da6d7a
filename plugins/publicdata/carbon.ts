import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError, notFound, ServiceError } from "../../core/runtime/errors.ts";

/** What the code reads of the NESO Carbon Intensity API's answers. */
const Mix = v.array(v.object({ fuel: v.string(), perc: v.number() }));
type Mix = v.InferOutput<typeof Mix>;
const Period = v.object({
  from: v.string(),
  to: v.string(),
  intensity: v.object({ forecast: v.number(), actual: v.optional(v.nullable(v.number())), index: v.string() }),
  generationmix: v.optional(Mix),
});
type Period = v.InferOutput<typeof Period>;
const Regional = v.object({
  regionid: v.number(),
  dnoregion: v.string(),
  shortname: v.string(),
  postcode: v.optional(v.string()),
  data: v.array(Period),
});

export default defineEndpoint({
  name: "carbon",
  method: "GET",
  price: "$0.005",
  summary:
    "Great Britain's electricity carbon intensity now (gCO2/kWh), national or by region or postcode, with the generation mix",
  description:
    "From the NESO Carbon Intensity API (CC BY 4.0), Great Britain only, in half-hour periods. Without `postcode` or `region` the national " +
    "figure (forecast and, once metered, actual) with the national generation mix; with one of them the regional forecast (regions have no " +
    "actual). Index: very low, low, moderate, high, very high. A postcode area with no GB region is a 404.",
  input: v.object({
    postcode: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z]{1,2}\d[A-Za-z\d]?$/, "not an outward postcode (RG10, SW1A)"),
        v.description("Outward part of a GB postcode, e.g. RG10"),
      ),
    ),
    region: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(17),
        v.description("NESO region id: 1-14 DNO regions, 15 England, 16 Scotland, 17 Wales"),
      ),
    ),
  }),
  output: v.object({
    scope: v.picklist(["national", "regional"]),
    region: v.nullable(
      v.object({
        id: v.number(),
        name: v.string(),
        operator: v.pipe(v.string(), v.description("Distribution network operator")),
        postcode: v.nullable(v.string()),
      }),
    ),
    from: v.pipe(v.string(), v.description("Start of the half-hour period, ISO 8601 UTC")),
    to: v.string(),
    forecast: v.pipe(v.number(), v.description("gCO2/kWh")),
    actual: v.pipe(v.nullable(v.number()), v.description("gCO2/kWh, national only, once metered")),
    index: v.pipe(v.string(), v.description("very low, low, moderate, high, very high")),
    generationMix: v.array(v.object({ fuel: v.string(), percent: v.number() })),
    url: v.string(),
  }),
  example: {
    input: { postcode: "RG10" },
    output: {
      scope: "regional",
      region: { id: 12, name: "South England", operator: "SSE South", postcode: "RG10" },
      from: "2025-01-15T12:00:00.000Z",
      to: "2025-01-15T12:30:00.000Z",
      forecast: 143,
      actual: null,
      index: "moderate",
      generationMix: [
        { fuel: "biomass", percent: 4.8 },
        { fuel: "coal", percent: 0 },
        { fuel: "imports", percent: 21.4 },
        { fuel: "gas", percent: 31.2 },
        { fuel: "nuclear", percent: 9.7 },
        { fuel: "other", percent: 0 },
        { fuel: "hydro", percent: 0.3 },
        { fuel: "solar", percent: 7.9 },
        { fuel: "wind", percent: 24.7 },
      ],
      url: "https://carbonintensity.org.uk/",
    },
  },
  cacheTtl: 15 * 60,
  upstreams: ["carbon-intensity"],
  async handler({ input, upstream }) {
    if (input.postcode && input.region) throw fieldError("region", "give postcode or region, not both");
    const api = upstream("carbon-intensity");
    if (input.postcode || input.region) {
      const path = input.postcode
        ? `/regional/postcode/${input.postcode.toUpperCase()}`
        : `/regional/regionid/${input.region}`;
      const answer = await api
        .json(path, v.object({ data: v.array(Regional) }), { keepErrorBody: true })
        .catch(noRegion);
      const area = answer.data[0];
      const period = area?.data[0];
      if (!period) throw notFound("no Great Britain region for this postcode");
      return {
        scope: "regional" as const,
        region: { id: area.regionid, name: area.shortname, operator: area.dnoregion, postcode: area.postcode ?? null },
        ...periodOf(period, period.generationmix ?? []),
      };
    }
    const [intensity, generation] = await Promise.all([
      api.json("/intensity", v.object({ data: v.array(Period) })),
      api.json("/generation", v.object({ data: v.object({ generationmix: Mix }) })),
    ]);
    const period = intensity.data[0];
    if (!period)
      throw new ServiceError(502, "upstream_error", "carbon-intensity answered no current period", {
        upstream: "carbon-intensity",
      });
    return { scope: "national" as const, region: null, ...periodOf(period, generation.data.generationmix) };
  },
});

function periodOf(p: Period, mix: Mix) {
  return {
    from: new Date(p.from).toISOString(),
    to: new Date(p.to).toISOString(),
    forecast: p.intensity.forecast,
    actual: p.intensity.actual ?? null,
    index: p.intensity.index,
    generationMix: mix.map((m) => ({ fuel: m.fuel, percent: m.perc })),
    url: "https://carbonintensity.org.uk/",
  };
}

/** The API answers an outward code it does not know with a 400. */
function noRegion(error: unknown): never {
  const status = error instanceof ServiceError ? (error.details as { status?: number } | undefined)?.status : undefined;
  if (status === 400) throw notFound("no Great Britain region for this postcode");
  throw error;
}
