import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound, upstreamFailed, checkUpstream } from "../../core/runtime/errors.ts";

/** What the code reads of DATOS_SERIE with tip=A ("friendly"): dates as text and codes replaced by names. */
const IneSeries = v.object({
  COD: v.string(),
  Nombre: v.string(),
  T3_Unidad: v.optional(v.string()),
  T3_Escala: v.optional(v.string()),
  Data: v.optional(
    v.array(
      v.object({
        Fecha: v.string(),
        T3_TipoDato: v.optional(v.string()),
        T3_Periodo: v.optional(v.string()),
        Anyo: v.number(),
        Valor: v.nullable(v.number()),
        Secreto: v.optional(v.boolean()),
      }),
    ),
  ),
});
/** A series, or INE's status message when there is none. */
const IneAnswer = v.union([IneSeries, v.object({ status: v.string() })]);

export default defineEndpoint({
  name: "ine",
  method: "GET",
  price: "$0.01",
  summary:
    "Spain's National Statistics Institute (INE): any time series by code (CPI, unemployment, GDP, population, ...)",
  description:
    "From INE's Tempus3 API (JSON, reuse with attribution). Give a series code as shown on ine.es (IPC251856 CPI annual rate, EPA815 " +
    "unemployment rate, CNTR6597 GDP, ...). Oldest first; `last` keeps the newest N, `since` starts at a day. Dates are the start of each " +
    "period, YYYY-MM-DD; value null where INE keeps it secret. An unknown code is a 404.",
  input: v.object({
    series: v.pipe(
      v.string(),
      v.regex(/^[A-Za-z]{2,10}\d{1,10}$/, "not an INE series code"),
      v.description("Series code, e.g. IPC251856"),
    ),
    last: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000), v.description("Only the newest N observations")),
      12,
    ),
    since: v.optional(v.pipe(v.string(), v.isoDate(), v.description("First day, YYYY-MM-DD"))),
    lang: v.optional(v.pipe(v.picklist(["ES", "EN"]), v.description("Language of names and units")), "EN"),
  }),
  output: v.object({
    series: v.string(),
    title: v.string(),
    unit: v.nullable(v.string()),
    scale: v.nullable(v.string()),
    total: v.pipe(v.number(), v.description("Observations INE returned")),
    observations: v.array(
      v.object({
        date: v.pipe(v.string(), v.description("Start of the period, YYYY-MM-DD")),
        year: v.number(),
        period: v.pipe(v.nullable(v.string()), v.description("INE period code, e.g. M01, T1, A")),
        value: v.nullable(v.number()),
        status: v.pipe(v.nullable(v.string()), v.description("e.g. Definitive, Provisional")),
      }),
    ),
    url: v.pipe(v.string(), v.description("The series on ine.es")),
  }),
  example: {
    input: { series: "IPC251856", last: 2 },
    output: {
      series: "IPC251856",
      title: "Total national. General index. Annual variation.",
      unit: "Rate",
      scale: null,
      total: 2,
      observations: [
        { date: "2024-11-01", year: 2024, period: "M11", value: 2.4, status: "Definitive" },
        { date: "2024-12-01", year: 2024, period: "M12", value: 2.8, status: "Provisional" },
      ],
      url: "https://www.ine.es/consul/serie.do?s=IPC251856",
    },
  },
  cacheTtl: 12 * 3600,
  timeoutMs: 20_000,
  upstreams: ["ine"],
  async handler({ input, upstream }) {
    const code = input.series.toUpperCase();
    // INE sometimes answers nult= with an empty body: ask for a date range (or everything) and keep the last N here.
    const date = input.since ? `${input.since.replaceAll("-", "")}:` : undefined;
    const body = await upstream("ine").text(`/${input.lang}/DATOS_SERIE/${code}`, {
      query: { tip: "A", date },
      notFoundAs404: true,
    });
    if (!body.trim()) throw notFound(`INE has no series ${code}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw upstreamFailed("ine", "ine answered something other than JSON");
    }
    const series = checkUpstream("ine", IneAnswer, parsed);
    if (!("COD" in series)) throw notFound(`INE has no series ${code}`);
    const data = series.Data ?? [];
    const kept = data.slice(-input.last);
    return {
      series: series.COD,
      title: series.Nombre.trim(),
      unit: series.T3_Unidad?.trim() || null,
      scale: series.T3_Escala?.trim() || null,
      total: data.length,
      observations: kept.map((d) => ({
        date: d.Fecha.slice(0, 10),
        year: d.Anyo,
        period: d.T3_Periodo ?? null,
        value: d.Secreto ? null : d.Valor,
        status: d.T3_TipoDato ?? null,
      })),
      url: `https://www.ine.es/consul/serie.do?s=${series.COD}`,
    };
  },
});
