import * as v from "valibot";
import { distanceKm } from "./_pr-geo.ts";

const title = v.nullish(v.object({ Title: v.string() }));
const maybe = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);
/** One POI of Open Charge Map's /v3/poi answer (full, non-compact output), as far as it is read. */
export const OcmPoi = v.object({
  ID: v.number(),
  UsageCost: maybe(v.string()),
  NumberOfPoints: maybe(v.number()),
  DateLastVerified: maybe(v.string()),
  OperatorInfo: title,
  UsageType: title,
  StatusType: v.nullish(v.object({ Title: v.string(), IsOperational: maybe(v.boolean()) })),
  AddressInfo: v.object({
    Title: v.string(),
    AddressLine1: maybe(v.string()),
    AddressLine2: maybe(v.string()),
    Town: maybe(v.string()),
    StateOrProvince: maybe(v.string()),
    Postcode: maybe(v.string()),
    Country: v.nullish(v.object({ ISOCode: v.string() })),
    Latitude: v.number(),
    Longitude: v.number(),
  }),
  Connections: v.optional(
    v.array(
      v.object({
        ConnectionType: title,
        PowerKW: maybe(v.number()),
        CurrentType: title,
        Quantity: maybe(v.number()),
        StatusType: title,
      }),
    ),
  ),
});
export type OcmPoi = v.InferOutput<typeof OcmPoi>;

/** Our connector names and the Open Charge Map connection type ids each stands for. */
export const connectorTypes = {
  type1: [1],
  type2: [25, 1036],
  ccs1: [32],
  ccs2: [33],
  chademo: [2],
  tesla: [27, 30],
} as const;

const text = v.nullable(v.string());

export const Station = v.object({
  id: v.pipe(v.number(), v.description("Open Charge Map POI id")),
  name: v.string(),
  operator: v.nullable(v.pipe(v.string(), v.description("Network or owner, as Open Charge Map names it"))),
  usage: v.nullable(v.pipe(v.string(), v.description("Public, membership required, customers only..."))),
  status: v.nullable(
    v.pipe(v.string(), v.description("Last reported status (not live availability); null when unknown")),
  ),
  operational: v.nullable(v.boolean()),
  usageCost: v.nullable(v.pipe(v.string(), v.description('Free text as contributed, e.g. "Free" or "0.35 EUR/kWh"'))),
  address: v.object({ line1: text, line2: text, town: text, state: text, postcode: text, countryCode: text }),
  lat: v.number(),
  lon: v.number(),
  distanceKm: v.pipe(v.number(), v.description("From the point asked about")),
  points: v.nullable(v.pipe(v.number(), v.description("Vehicles that can charge at once, when known"))),
  connectors: v.array(
    v.object({
      type: text,
      powerKw: v.nullable(v.number()),
      current: v.nullable(v.pipe(v.string(), v.description("AC single-phase, AC three-phase or DC"))),
      count: v.nullable(v.number()),
      status: text,
    }),
  ),
  lastVerified: v.nullable(v.pipe(v.string(), v.description("When a person last confirmed the data, ISO 8601"))),
  url: v.pipe(v.string(), v.description("The POI's page on openchargemap.org")),
});

export type Station = v.InferOutput<typeof Station>;

export function toStation(poi: OcmPoi, from: { lat: number; lon: number }): Station {
  const a = poi.AddressInfo;
  return {
    id: poi.ID,
    name: a.Title,
    operator: poi.OperatorInfo?.Title ?? null,
    usage: poi.UsageType?.Title ?? null,
    status: poi.StatusType?.Title ?? null,
    operational: poi.StatusType?.IsOperational ?? null,
    usageCost: poi.UsageCost || null,
    address: {
      line1: a.AddressLine1 || null,
      line2: a.AddressLine2 || null,
      town: a.Town || null,
      state: a.StateOrProvince || null,
      postcode: a.Postcode || null,
      countryCode: a.Country?.ISOCode ?? null,
    },
    lat: a.Latitude,
    lon: a.Longitude,
    distanceKm: Math.round(distanceKm(from.lat, from.lon, a.Latitude, a.Longitude) * 100) / 100,
    points: poi.NumberOfPoints ?? null,
    connectors: (poi.Connections ?? []).map((c) => ({
      type: c.ConnectionType?.Title ?? null,
      powerKw: c.PowerKW ?? null,
      current: c.CurrentType?.Title ?? null,
      count: c.Quantity ?? null,
      status: c.StatusType?.Title ?? null,
    })),
    lastVerified: poi.DateLastVerified ?? null,
    url: `https://openchargemap.org/site/poi/details/${poi.ID}`,
  };
}
