import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Location, placeEntries, resolveLocation } from "./_pr-geocode.ts";
import { currentAndHourly, seriesRow, Units } from "./_pr-open-meteo.ts";

const current = {
  waveHeight: "wave_height",
  waveDirection: "wave_direction",
  wavePeriod: "wave_period",
  swellWaveHeight: "swell_wave_height",
  swellWaveDirection: "swell_wave_direction",
  swellWavePeriod: "swell_wave_period",
  windWaveHeight: "wind_wave_height",
  seaSurfaceTemperature: "sea_surface_temperature",
  oceanCurrentVelocity: "ocean_current_velocity",
  oceanCurrentDirection: "ocean_current_direction",
} as const;
const hourly = {
  waveHeight: "wave_height",
  waveDirection: "wave_direction",
  wavePeriod: "wave_period",
  swellWaveHeight: "swell_wave_height",
  seaSurfaceTemperature: "sea_surface_temperature",
} as const;

export default defineEndpoint({
  name: "marine",
  method: "GET",
  price: "$0.005",
  summary: "Sea conditions now and for the next hours: waves, swell, wind waves, sea temperature and currents",
  description:
    "From Open-Meteo's marine API (wave and ocean models). Points on land or far inland have no sea data: every value is null and `atSea` is false. Give `lat` and `lon`, or `place` (resolved once through the geocoder; a coastal town works). Heights in metres, periods in seconds; units are stated per field. Keyless tier non-commercial only: the operator sets UPSTREAM_OPEN_METEO_MARINE_URL and _KEY for a paid plan or a self-hosted server.",
  input: v.object({
    ...placeEntries,
    hours: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(168),
        v.description("Hours of hourly forecast from now"),
      ),
      24,
    ),
  }),
  output: v.object({
    location: Location,
    zone: v.string(),
    atSea: v.pipe(v.boolean(), v.description("False when the models have no value for the point (land)")),
    units: Units,
    current: seriesRow(current),
    hourly: v.array(seriesRow(hourly)),
  }),
  example: {
    input: { lat: 43.48, lon: -1.56, hours: 1 },
    output: {
      location: { lat: 43.48, lon: -1.56, name: null, countryCode: null, resolvedFrom: "coordinates" },
      zone: "Europe/Paris",
      atSea: true,
      units: {
        waveHeight: "m",
        waveDirection: "°",
        wavePeriod: "s",
        swellWaveHeight: "m",
        swellWaveDirection: "°",
        swellWavePeriod: "s",
        windWaveHeight: "m",
        seaSurfaceTemperature: "°C",
        oceanCurrentVelocity: "km/h",
        oceanCurrentDirection: "°",
      },
      current: {
        time: "2025-06-01T10:00",
        waveHeight: 1.52,
        waveDirection: 292,
        wavePeriod: 9.85,
        swellWaveHeight: 1.3,
        swellWaveDirection: 296,
        swellWavePeriod: 10.5,
        windWaveHeight: 0.36,
        seaSurfaceTemperature: 17.4,
        oceanCurrentVelocity: 0.8,
        oceanCurrentDirection: 175,
      },
      hourly: [
        {
          time: "2025-06-01T10:00",
          waveHeight: 1.52,
          waveDirection: 292,
          wavePeriod: 9.85,
          swellWaveHeight: 1.3,
          seaSurfaceTemperature: 17.4,
        },
      ],
    },
  },
  cacheTtl: 3600,
  upstreams: ["open-meteo-marine", "open-meteo-geocoding"],
  async handler({ input, upstream }) {
    const location = await resolveLocation(() => upstream("open-meteo-geocoding"), input);
    const {
      zone,
      units,
      current: now,
      hourly: next,
    } = await currentAndHourly(upstream("open-meteo-marine"), "/v1/marine", location, {
      current,
      hourly,
      hours: input.hours,
    });
    const atSea = Object.entries(now).some(([key, value]) => key !== "time" && value !== null);
    return { location, zone, atSea, units, current: now, hourly: next };
  },
});
