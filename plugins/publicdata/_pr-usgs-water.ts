import * as v from "valibot";

const first = <S extends v.GenericSchema>(item: S) => v.pipe(v.array(item), v.minLength(1));
/** What the code reads of a WaterML 1.1 JSON answer of the NWIS instantaneous-values service (each code list has its first entry). */
const IvSeries = v.object({
  sourceInfo: v.object({
    siteName: v.string(),
    siteCode: first(v.object({ value: v.string() })),
    geoLocation: v.object({ geogLocation: v.object({ latitude: v.number(), longitude: v.number() }) }),
  }),
  variable: v.object({
    variableCode: first(v.object({ value: v.string() })),
    variableDescription: v.string(),
    unit: v.object({ unitCode: v.string() }),
    noDataValue: v.number(),
  }),
  values: v.array(
    v.object({
      value: v.array(v.object({ value: v.string(), qualifiers: v.array(v.string()), dateTime: v.string() })),
      method: v.array(v.object({ methodDescription: v.string() })),
    }),
  ),
});
export const IvAnswer = v.object({ value: v.object({ timeSeries: v.array(IvSeries) }) });
export type IvAnswer = v.InferOutput<typeof IvAnswer>;

/** Discharge and gage height: the two readings nearly every stream gage reports. */
export const parameterNames: Record<string, string> = { "00060": "discharge", "00065": "gage height" };

export const Reading = v.object({
  parameter: v.pipe(v.string(), v.description("USGS parameter code: 00060 discharge, 00065 gage height")),
  name: v.string(),
  description: v.pipe(v.string(), v.description("USGS wording, with the unit spelled out")),
  unit: v.pipe(v.string(), v.description("ft3/s for discharge, ft for gage height")),
  value: v.nullable(
    v.pipe(
      v.string(),
      v.description(
        "As USGS gives it (a decimal string); null when the gage sent no value (ice, equipment, rating under revision)",
      ),
    ),
  ),
  time: v.pipe(v.string(), v.description("Time of the reading, local to the site with its UTC offset, ISO 8601")),
  provisional: v.pipe(v.boolean(), v.description("Not yet reviewed by USGS; may be revised")),
  qualifiers: v.pipe(
    v.array(v.string()),
    v.description("USGS codes: P provisional, A approved, e estimated, Ice, Eqp, Rat..."),
  ),
  method: v.nullable(v.pipe(v.string(), v.description("Which sensor, when a site has several for one parameter"))),
});

export type Reading = v.InferOutput<typeof Reading>;

export interface GageSite {
  id: string;
  name: string;
  lat: number;
  lon: number;
  readings: Reading[];
}

const isoTime = (dateTime: string) => dateTime.replace(/\.000(?=[+-]\d\d:\d\d$|Z$)/, "");

/** The latest reading of every series, grouped by site in the order USGS lists them. */
export function sitesOf(answer: IvAnswer): GageSite[] {
  const sites = new Map<string, GageSite>();
  for (const series of answer.value.timeSeries) {
    const { siteName, siteCode, geoLocation } = series.sourceInfo;
    const id = siteCode[0].value;
    const site = sites.get(id) ?? {
      id,
      name: siteName,
      lat: geoLocation.geogLocation.latitude,
      lon: geoLocation.geogLocation.longitude,
      readings: [],
    };
    sites.set(id, site);
    const parameter = series.variable.variableCode[0].value;
    for (const block of series.values) {
      const latest = block.value.at(-1);
      if (!latest) continue;
      site.readings.push({
        parameter,
        name: parameterNames[parameter] ?? parameter,
        description: series.variable.variableDescription,
        unit: series.variable.unit.unitCode,
        value: Number(latest.value) === series.variable.noDataValue ? null : latest.value,
        time: isoTime(latest.dateTime),
        provisional: latest.qualifiers.includes("P"),
        qualifiers: latest.qualifiers,
        method: block.method[0]?.methodDescription || null,
      });
    }
  }
  return [...sites.values()];
}

/** west,south,east,north around a point, as the NWIS `bBox` parameter wants it (at most 7 decimals). */
export function boundingBox(lat: number, lon: number, radiusKm: number): string {
  const dLat = radiusKm / 111.32;
  const dLon = radiusKm / (111.32 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01));
  const round = (x: number) => Number(x.toFixed(5));
  return [
    round(Math.max(lon - dLon, -180)),
    round(Math.max(lat - dLat, -90)),
    round(Math.min(lon + dLon, 180)),
    round(Math.min(lat + dLat, 90)),
  ].join(",");
}

export const siteUrl = (id: string) => `https://waterdata.usgs.gov/monitoring-location/USGS-${id}/`;
