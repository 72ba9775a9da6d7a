import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Location, placeEntries, resolveLocation } from "./_pr-geocode.ts";
import { currentAndHourly, seriesRow, Units } from "./_pr-open-meteo.ts";

const current = {
  usAqi: "us_aqi",
  europeanAqi: "european_aqi",
  pm2_5: "pm2_5",
  pm10: "pm10",
  ozone: "ozone",
  nitrogenDioxide: "nitrogen_dioxide",
  sulphurDioxide: "sulphur_dioxide",
  carbonMonoxide: "carbon_monoxide",
  dust: "dust",
  uvIndex: "uv_index",
} as const;
const hourly = { usAqi: "us_aqi", europeanAqi: "european_aqi", pm2_5: "pm2_5", pm10: "pm10" } as const;

export default defineEndpoint({
  name: "air-quality",
  method: "GET",
  price: "$0.005",
  summary: "Air quality now and for the next hours: US and European AQI, PM2.5, PM10, ozone, NO2, SO2, CO, dust, UV",
  description:
    "From Open-Meteo's air-quality API, which serves the CAMS atmospheric model (about 11 km in Europe, 40 km elsewhere): modelled values, not station measurements. Give `lat` and `lon`, or `place` (resolved once through the geocoder). Units are stated per field. Keyless tier non-commercial only: the operator sets UPSTREAM_OPEN_METEO_AIR_QUALITY_URL and _KEY for a paid plan or a self-hosted server.",
  input: v.object({
    ...placeEntries,
    hours: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(120),
        v.description("Hours of hourly forecast from now"),
      ),
      24,
    ),
  }),
  output: v.object({
    location: Location,
    zone: v.string(),
    units: Units,
    current: seriesRow(current),
    hourly: v.array(seriesRow(hourly)),
  }),
  example: {
    input: { lat: 48.8566, lon: 2.3522, hours: 1 },
    output: {
      location: { lat: 48.8566, lon: 2.3522, name: null, countryCode: null, resolvedFrom: "coordinates" },
      zone: "Europe/Paris",
      units: {
        usAqi: "USAQI",
        europeanAqi: "EAQI",
        pm2_5: "μg/m³",
        pm10: "μg/m³",
        ozone: "μg/m³",
        nitrogenDioxide: "μg/m³",
        sulphurDioxide: "μg/m³",
        carbonMonoxide: "μg/m³",
        dust: "μg/m³",
        uvIndex: "",
      },
      current: {
        time: "2025-03-10T14:00",
        usAqi: 61,
        europeanAqi: 44,
        pm2_5: 17.6,
        pm10: 24.1,
        ozone: 71,
        nitrogenDioxide: 21.4,
        sulphurDioxide: 2.1,
        carbonMonoxide: 233,
        dust: 1,
        uvIndex: 3.15,
      },
      hourly: [{ time: "2025-03-10T14:00", usAqi: 61, europeanAqi: 44, pm2_5: 17.6, pm10: 24.1 }],
    },
  },
  cacheTtl: 3600,
  upstreams: ["open-meteo-air-quality", "open-meteo-geocoding"],
  async handler({ input, upstream }) {
    const location = await resolveLocation(() => upstream("open-meteo-geocoding"), input);
    const {
      zone,
      units,
      current: now,
      hourly: next,
    } = await currentAndHourly(upstream("open-meteo-air-quality"), "/v1/air-quality", location, {
      current,
      hourly,
      hours: input.hours,
    });
    return { location, zone, units, current: now, hourly: next };
  },
});
