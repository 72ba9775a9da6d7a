import * as v from "valibot";
import { DateTime } from "luxon";
import { defineEndpoint, type Store, type Upstream } from "../../core/endpoint.ts";
import { notFound, upstreamFailed } from "../../core/runtime/errors.ts";
import { nearest } from "./_pr-geo.ts";
import { Location, placeEntries, resolveLocation } from "./_pr-geocode.ts";
import { isoDate } from "./_pr-inputs.ts";
import { localDay } from "./_pr-local-day.ts";

/** What the code reads of one station of the CO-OPS metadata API's tide-prediction list. */
const CoopsStation = v.object({
  id: v.string(),
  name: v.string(),
  state: v.nullable(v.string()),
  lat: v.number(),
  lng: v.number(),
  type: v.picklist(["R", "S"]),
  reference_id: v.string(),
});
type CoopsStation = v.InferOutput<typeof CoopsStation>;
/** The data API answers its predictions, or an error message in a 200. */
const Predictions = v.object({
  predictions: v.optional(v.array(v.object({ t: v.string(), v: v.string(), type: v.picklist(["H", "L"]) }))),
  error: v.optional(v.object({ message: v.string() })),
});

/** The station list changes a few times a year; every call in between reads this copy. */
const stationsTtlMs = 24 * 3600 * 1000;
const stationsKey = "publicdata:noaa-coops:tide-stations";

async function tideStations(store: Store, api: Upstream): Promise<CoopsStation[]> {
  const kept = await store.get<CoopsStation[]>(stationsKey);
  if (kept) return kept;
  const answer = await api.json("/mdapi/prod/webapi/stations.json", v.object({ stations: v.array(CoopsStation) }), {
    query: { type: "tidepredictions" },
  });
  const stations = answer.stations.map(({ id, name, state, lat, lng, type, reference_id }) => ({
    id,
    name,
    state,
    lat,
    lng,
    type,
    reference_id,
  }));
  await store.set(stationsKey, stations, stationsTtlMs);
  return stations;
}

const compact = (date: string) => date.replaceAll("-", "");

export default defineEndpoint({
  name: "tides",
  method: "GET",
  price: "$0.005",
  summary:
    "High and low tide times and heights at a NOAA station: by station id, coordinates or place name (nearest station)",
  description:
    "Astronomical tide predictions from NOAA CO-OPS (public domain; US coasts, territories and a few neighbouring points; Great Lakes have none). Give `station` (a 7-digit CO-OPS id), or `lat` and `lon`, or `place` (geocoded once): the nearest prediction station within `radiusKm` is used, and none in range is a 404. Heights are above mean lower low water (MLLW, the chart datum) in metres or feet; times are the station's local time with their UTC offset. Predictions leave out weather (surge, wind set-up).",
  input: v.object({
    station: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{7}$/, "must be a 7-digit NOAA CO-OPS station id"),
        v.description("NOAA CO-OPS station id, e.g. 9414290 (San Francisco)"),
      ),
    ),
    ...placeEntries,
    radiusKm: v.optional(
      v.pipe(
        v.number(),
        v.minValue(1),
        v.maxValue(500),
        v.description("How far from the point the nearest station may be, km"),
      ),
      100,
    ),
    date: v.optional(isoDate("First day, in the station's local time; defaults to today there")),
    days: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(31), v.description("Days of predictions from `date`")),
      2,
    ),
    units: v.optional(
      v.pipe(v.picklist(["metric", "imperial"]), v.description("metric: metres; imperial: feet")),
      "metric",
    ),
  }),
  oneOf: [["station"], ["lat", "lon"], ["place"]],
  output: v.object({
    station: v.object({
      id: v.string(),
      name: v.string(),
      state: v.nullable(v.string()),
      lat: v.number(),
      lon: v.number(),
      kind: v.pipe(
        v.picklist(["reference", "subordinate"]),
        v.description("A subordinate station's tides are offsets from its reference station"),
      ),
      referenceId: v.nullable(v.string()),
      distanceKm: v.nullable(
        v.pipe(v.number(), v.description("From the point asked about; null when the station was named")),
      ),
      url: v.pipe(v.string(), v.description("The station's NOAA Tides and Currents page")),
    }),
    location: v.nullable(Location),
    zone: v.pipe(v.string(), v.description("IANA time zone of the station")),
    datum: v.pipe(v.literal("MLLW"), v.description("Heights are above mean lower low water")),
    unit: v.picklist(["m", "ft"]),
    tides: v.array(
      v.object({
        time: v.pipe(v.string(), v.description("Local time with UTC offset, ISO 8601")),
        type: v.picklist(["high", "low"]),
        height: v.pipe(v.string(), v.description("In `unit` above MLLW, as NOAA gives it (a decimal string)")),
      }),
    ),
  }),
  example: {
    input: { station: "9414290", date: "2025-06-01", days: 1 },
    output: {
      station: {
        id: "9414290",
        name: "San Francisco",
        state: "CA",
        lat: 37.8063,
        lon: -122.4659,
        kind: "reference",
        referenceId: null,
        distanceKm: null,
        url: "https://tidesandcurrents.noaa.gov/stationhome.html?id=9414290",
      },
      location: null,
      zone: "America/Los_Angeles",
      datum: "MLLW",
      unit: "m",
      tides: [
        { time: "2025-06-01T04:46:00-07:00", type: "low", height: "-0.337" },
        { time: "2025-06-01T11:38:00-07:00", type: "high", height: "1.478" },
        { time: "2025-06-01T16:09:00-07:00", type: "low", height: "0.846" },
        { time: "2025-06-01T22:18:00-07:00", type: "high", height: "1.877" },
      ],
    },
  },
  cacheTtl: 6 * 3600,
  upstreams: ["noaa-coops", "open-meteo-geocoding"],
  async handler({ input, upstream, store, now }) {
    const api = upstream("noaa-coops");
    let location: Location | null = null;
    let station: CoopsStation;
    let distanceKm: number | null = null;
    if (input.station !== undefined) {
      const found = (await tideStations(store, api)).find((s) => s.id === input.station);
      if (!found) throw notFound(`NOAA has no tide prediction station ${input.station}`);
      station = found;
    } else {
      location = await resolveLocation(() => upstream("open-meteo-geocoding"), input);
      const [closest] = nearest(await tideStations(store, api), location, (s) => [s.lat, s.lng], input.radiusKm, 1);
      if (!closest)
        throw notFound(
          `No NOAA tide prediction station within ${input.radiusKm} km of ${location.lat}, ${location.lon}`,
        );
      ({ item: station, distanceKm } = closest);
    }
    const { zone, start } = localDay({ lat: station.lat, lon: station.lng, date: input.date }, now());
    const answer = await api.json("/api/prod/datagetter", Predictions, {
      query: {
        product: "predictions",
        application: "x402-publicdata",
        station: station.id,
        datum: "MLLW",
        interval: "hilo",
        format: "json",
        time_zone: "lst_ldt",
        units: input.units === "imperial" ? "english" : "metric",
        begin_date: compact(start.toISODate()!),
        end_date: compact(start.plus({ days: input.days - 1 }).toISODate()!),
      },
    });
    if (!answer.predictions)
      throw upstreamFailed("noaa-coops", answer.error?.message ?? "noaa-coops answered without predictions");
    return {
      station: {
        id: station.id,
        name: station.name,
        state: station.state || null,
        lat: station.lat,
        lon: station.lng,
        kind: station.type === "S" ? ("subordinate" as const) : ("reference" as const),
        referenceId: station.type === "S" ? station.reference_id : null,
        distanceKm,
        url: `https://tidesandcurrents.noaa.gov/stationhome.html?id=${station.id}`,
      },
      location,
      zone,
      datum: "MLLW" as const,
      unit: input.units === "imperial" ? ("ft" as const) : ("m" as const),
      tides: answer.predictions.map((p) => ({
        time: DateTime.fromFormat(p.t, "yyyy-MM-dd HH:mm", { zone }).toISO({ suppressMilliseconds: true })!,
        type: p.type === "H" ? ("high" as const) : ("low" as const),
        height: p.v,
      })),
    };
  },
});
