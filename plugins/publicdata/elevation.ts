import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { placeEntries, resolveLocation } from "./_pr-geocode.ts";

const number = String.raw`-?\d{1,3}(?:\.\d{1,8})?`;
/** What the code reads of Open-Meteo's elevation answer: one value per point asked for. */
const Elevations = v.object({ elevation: v.array(v.nullable(v.number())) });

const pointsPattern = new RegExp(`^${number},${number}(?:;${number},${number}){0,99}$`);

export default defineEndpoint({
  name: "elevation",
  method: "GET",
  price: "$0.005",
  summary: "Ground elevation in metres for up to 100 points, or for a place name",
  description:
    "From Open-Meteo's elevation API (Copernicus DEM GLO-90, 90 m resolution). Give `lat` and `lon`, `place` (resolved once through the geocoder), or `points` (up to 100 `lat,lon` pairs separated by `;`). Sea points give 0 or a small value; the DEM has no bathymetry. Keyless tier non-commercial only: the operator sets UPSTREAM_OPEN_METEO_URL and _KEY for a paid plan or a self-hosted server.",
  input: v.object({
    ...placeEntries,
    points: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(3000),
        v.regex(pointsPattern, "must be up to 100 lat,lon pairs separated by ;"),
        v.description("lat,lon pairs separated by ;, e.g. 46.5586,7.8351;45.8326,6.8652"),
      ),
    ),
  }),
  output: v.object({
    unit: v.literal("m"),
    points: v.array(
      v.object({ lat: v.number(), lon: v.number(), elevation: v.nullable(v.number()), name: v.nullable(v.string()) }),
    ),
    dataset: v.string(),
  }),
  example: {
    input: { points: "45.8326,6.8652;27.9881,86.925" },
    output: {
      unit: "m",
      points: [
        { lat: 45.8326, lon: 6.8652, elevation: 4789, name: null },
        { lat: 27.9881, lon: 86.925, elevation: 8794, name: null },
      ],
      dataset: "Copernicus DEM GLO-90",
    },
  },
  cacheTtl: 30 * 86_400,
  upstreams: ["open-meteo", "open-meteo-geocoding"],
  async handler({ input, upstream }) {
    let points: { lat: number; lon: number; name: string | null }[];
    if (input.points !== undefined) {
      if (input.lat !== undefined || input.lon !== undefined || input.place !== undefined)
        throw fieldError("points", "give points, or lat and lon, or place");
      points = input.points.split(";").map((pair) => {
        const [lat, lon] = pair.split(",").map(Number);
        return { lat, lon, name: null };
      });
      const bad = points.findIndex((p) => Math.abs(p.lat) > 90 || Math.abs(p.lon) > 180);
      if (bad >= 0) throw fieldError("points", `point ${bad + 1} is outside -90..90, -180..180`);
    } else {
      const location = await resolveLocation(() => upstream("open-meteo-geocoding"), input);
      points = [{ lat: location.lat, lon: location.lon, name: location.name }];
    }
    const answer = await upstream("open-meteo").json("/v1/elevation", Elevations, {
      query: { latitude: points.map((p) => p.lat).join(","), longitude: points.map((p) => p.lon).join(",") },
    });
    return {
      unit: "m" as const,
      points: points.map((p, i) => ({ ...p, elevation: answer.elevation[i] ?? null })),
      dataset: "Copernicus DEM GLO-90",
    };
  },
});
