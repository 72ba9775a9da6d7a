import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Location, placeEntries, resolveLocation } from "./_pr-geocode.ts";
import {
  CurrentOf,
  describeWeather,
  num,
  renameUnits,
  SeriesOf,
  str,
  unitQuery,
  Units,
  UnitsOf,
  unitsInput,
} from "./_pr-open-meteo.ts";

const current = {
  temperature: "temperature_2m",
  apparentTemperature: "apparent_temperature",
  humidity: "relative_humidity_2m",
  precipitation: "precipitation",
  windSpeed: "wind_speed_10m",
  windDirection: "wind_direction_10m",
  weatherCode: "weather_code",
} as const;
const daily = {
  temperatureMax: "temperature_2m_max",
  temperatureMin: "temperature_2m_min",
  precipitationSum: "precipitation_sum",
  precipitationProbabilityMax: "precipitation_probability_max",
  windSpeedMax: "wind_speed_10m_max",
  sunrise: "sunrise",
  sunset: "sunset",
  weatherCode: "weather_code",
} as const;
const n = v.nullable(v.number());
const t = v.nullable(v.string());

/** What the code reads of Open-Meteo's forecast answer. */
const Forecast = v.object({
  timezone: v.string(),
  utc_offset_seconds: v.number(),
  elevation: v.number(),
  current_units: UnitsOf,
  current: CurrentOf,
  daily_units: UnitsOf,
  daily: SeriesOf,
});

export default defineEndpoint({
  name: "weather",
  method: "GET",
  price: "$0.005",
  mcp: true,
  summary: "Current weather and a daily forecast (up to 16 days) for coordinates or a place name, with units stated",
  description:
    "From Open-Meteo's forecast API (CC BY 4.0). Give `lat` and `lon`, or `place` (resolved once through the geocoder; the match is in `location`). Times are local to `zone`. `units` says the unit of every field. Open-Meteo's keyless tier is for non-commercial use: the operator points UPSTREAM_OPEN_METEO_URL and UPSTREAM_OPEN_METEO_KEY at a paid plan (customer-api.open-meteo.com) or a self-hosted server.",
  input: v.object({
    ...placeEntries,
    units: unitsInput,
    days: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(16),
        v.description("Days of daily forecast, today first"),
      ),
      7,
    ),
  }),
  output: v.object({
    location: Location,
    zone: v.pipe(v.string(), v.description("IANA time zone the times are in")),
    utcOffsetSeconds: v.number(),
    elevation: v.pipe(v.number(), v.description("Metres, of the model cell")),
    units: Units,
    current: v.object({
      time: v.string(),
      temperature: n,
      apparentTemperature: n,
      humidity: n,
      precipitation: n,
      windSpeed: n,
      windDirection: n,
      weatherCode: n,
      weather: t,
    }),
    daily: v.array(
      v.object({
        date: v.string(),
        weatherCode: n,
        weather: t,
        temperatureMax: n,
        temperatureMin: n,
        precipitationSum: n,
        precipitationProbabilityMax: n,
        windSpeedMax: n,
        sunrise: t,
        sunset: t,
      }),
    ),
  }),
  example: {
    input: { lat: 52.52, lon: 13.41, days: 1 },
    output: {
      location: { lat: 52.52, lon: 13.41, name: null, countryCode: null, resolvedFrom: "coordinates" },
      zone: "Europe/Berlin",
      utcOffsetSeconds: 3600,
      elevation: 38,
      units: {
        temperature: "°C",
        apparentTemperature: "°C",
        humidity: "%",
        precipitation: "mm",
        windSpeed: "km/h",
        windDirection: "°",
        weatherCode: "wmo code",
        temperatureMax: "°C",
        temperatureMin: "°C",
        precipitationSum: "mm",
        precipitationProbabilityMax: "%",
        windSpeedMax: "km/h",
        sunrise: "iso8601",
        sunset: "iso8601",
      },
      current: {
        time: "2025-01-15T12:00",
        temperature: 2.6,
        apparentTemperature: -1.4,
        humidity: 81,
        precipitation: 0,
        windSpeed: 12.3,
        windDirection: 245,
        weatherCode: 3,
        weather: "overcast",
      },
      daily: [
        {
          date: "2025-01-15",
          weatherCode: 3,
          weather: "overcast",
          temperatureMax: 3.4,
          temperatureMin: -0.8,
          precipitationSum: 0,
          precipitationProbabilityMax: 13,
          windSpeedMax: 14.8,
          sunrise: "2025-01-15T08:10",
          sunset: "2025-01-15T16:24",
        },
      ],
    },
  },
  cacheTtl: 15 * 60,
  upstreams: ["open-meteo", "open-meteo-geocoding"],
  async handler({ input, upstream }) {
    const location = await resolveLocation(() => upstream("open-meteo-geocoding"), input);
    const f = await upstream("open-meteo").json("/v1/forecast", Forecast, {
      query: {
        latitude: location.lat,
        longitude: location.lon,
        current: Object.values(current).join(","),
        daily: Object.values(daily).join(","),
        timezone: "auto",
        forecast_days: input.days,
        ...unitQuery(input.units),
      },
    });
    const c = f.current;
    return {
      location,
      zone: f.timezone,
      utcOffsetSeconds: f.utc_offset_seconds,
      elevation: f.elevation,
      units: { ...renameUnits(f.current_units, current), ...renameUnits(f.daily_units, daily) },
      current: {
        time: String(c.time),
        temperature: num(c.temperature_2m),
        apparentTemperature: num(c.apparent_temperature),
        humidity: num(c.relative_humidity_2m),
        precipitation: num(c.precipitation),
        windSpeed: num(c.wind_speed_10m),
        windDirection: num(c.wind_direction_10m),
        weatherCode: num(c.weather_code),
        weather: describeWeather(num(c.weather_code)),
      },
      daily: f.daily.time.map((date, i) => {
        const at = (key: (typeof daily)[keyof typeof daily]) => f.daily[key]?.[i];
        return {
          date,
          weatherCode: num(at("weather_code")),
          weather: describeWeather(num(at("weather_code"))),
          temperatureMax: num(at("temperature_2m_max")),
          temperatureMin: num(at("temperature_2m_min")),
          precipitationSum: num(at("precipitation_sum")),
          precipitationProbabilityMax: num(at("precipitation_probability_max")),
          windSpeedMax: num(at("wind_speed_10m_max")),
          sunrise: str(at("sunrise")),
          sunset: str(at("sunset")),
        };
      }),
    };
  },
});
