import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { isoDate, latitude, limit, longitude } from "./_pr-inputs.ts";

const n = v.nullable(v.number());
const s = v.nullable(v.string());
/** What the code reads of a USGS GeoJSON feed. */
const Feed = v.object({
  features: v.array(
    v.object({
      id: v.string(),
      properties: v.object({
        mag: n,
        magType: s,
        place: s,
        time: v.number(),
        updated: v.number(),
        url: v.string(),
        felt: n,
        alert: s,
        tsunami: v.number(),
        sig: v.number(),
        status: v.string(),
        type: v.string(),
        title: v.string(),
      }),
      geometry: v.object({ coordinates: v.tuple([v.number(), v.number(), v.number()]) }),
    }),
  ),
});

const day = 86_400_000;

export default defineEndpoint({
  name: "earthquakes",
  method: "GET",
  price: "$0.01",
  summary: "Recent earthquakes worldwide or near a point: magnitude, place, time, depth, tsunami flag, PAGER alert",
  description:
    "From the USGS earthquake catalog (FDSN event service, public domain), newest first. Defaults to the last 7 days (UTC dates) at magnitude 4.5 or more. With `lat` and `lon`, only events within `radiusKm`. Not an alerting service: recent events are revised for hours.",
  input: v.object({
    minMagnitude: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(10), v.description("Smallest magnitude")),
      4.5,
    ),
    start: v.optional(isoDate("First day (UTC); defaults to 7 days ago")),
    end: v.optional(isoDate("Last day (UTC), inclusive; defaults to now")),
    lat: v.optional(latitude("Centre latitude for a radius search")),
    lon: v.optional(longitude("Centre longitude for a radius search")),
    radiusKm: v.optional(
      v.pipe(v.number(), v.minValue(1), v.maxValue(20_001), v.description("Radius around lat/lon, km")),
      500,
    ),
    limit: limit(200, 20, "events"),
  }),
  output: v.object({
    count: v.number(),
    events: v.array(
      v.object({
        id: v.string(),
        magnitude: v.nullable(v.number()),
        magnitudeType: v.nullable(v.string()),
        place: v.nullable(v.string()),
        time: v.pipe(v.string(), v.description("Origin time, UTC ISO 8601")),
        updated: v.string(),
        lat: v.number(),
        lon: v.number(),
        depthKm: v.number(),
        tsunami: v.pipe(
          v.boolean(),
          v.description("A tsunami message was issued for the region (not a tsunami warning)"),
        ),
        alert: v.nullable(
          v.pipe(v.picklist(["green", "yellow", "orange", "red"]), v.description("PAGER impact alert level")),
        ),
        felt: v.nullable(v.pipe(v.number(), v.description("Did-You-Feel-It reports"))),
        significance: v.number(),
        status: v.pipe(v.string(), v.description("automatic or reviewed")),
        type: v.string(),
        url: v.string(),
      }),
    ),
  }),
  example: {
    input: { start: "2025-07-29", end: "2025-07-30", minMagnitude: 8, limit: 1 },
    output: {
      count: 1,
      events: [
        {
          id: "us6000qw60",
          magnitude: 8.8,
          magnitudeType: "mww",
          place: "2025 Kamchatka Peninsula, Russia Earthquake",
          time: "2025-07-29T23:24:52.481Z",
          updated: "2025-08-12T14:10:40.040Z",
          lat: 52.4876,
          lon: 160.2641,
          depthKm: 35,
          tsunami: true,
          alert: "yellow",
          felt: 272,
          significance: 2910,
          status: "reviewed",
          type: "earthquake",
          url: "https://earthquake.usgs.gov/earthquakes/eventpage/us6000qw60",
        },
      ],
    },
  },
  cacheTtl: 60,
  upstreams: ["usgs"],
  async handler({ input, upstream, now }) {
    const hasPoint = input.lat !== undefined || input.lon !== undefined;
    if (hasPoint && (input.lat === undefined || input.lon === undefined))
      throw fieldError(input.lat === undefined ? "lat" : "lon", "give both lat and lon");
    const start = input.start ?? new Date(now().getTime() - 7 * day).toISOString().slice(0, 10);
    if (input.end !== undefined && input.end < start) throw fieldError("end", "end is before start");
    const answer = await upstream("usgs").json("/fdsnws/event/1/query", Feed, {
      query: {
        format: "geojson",
        orderby: "time",
        starttime: start,
        endtime: input.end && `${input.end}T23:59:59`,
        minmagnitude: input.minMagnitude,
        limit: input.limit,
        ...(hasPoint ? { latitude: input.lat, longitude: input.lon, maxradiuskm: input.radiusKm } : {}),
      },
    });
    const events = answer.features.map(({ id, properties: p, geometry }) => ({
      id,
      magnitude: p.mag,
      magnitudeType: p.magType,
      place: p.place,
      time: new Date(p.time).toISOString(),
      updated: new Date(p.updated).toISOString(),
      lat: geometry.coordinates[1],
      lon: geometry.coordinates[0],
      depthKm: geometry.coordinates[2],
      tsunami: p.tsunami === 1,
      alert: (p.alert as "green" | "yellow" | "orange" | "red" | null) ?? null,
      felt: p.felt,
      significance: p.sig,
      status: p.status,
      type: p.type,
      url: p.url,
    }));
    return { count: events.length, events };
  },
});
