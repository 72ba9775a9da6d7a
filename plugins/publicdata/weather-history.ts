import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { placeEntries, resolveLocation } from "./_pr-geocode.ts";
import { checkRange, fetchHistory, historyDescription, HistoryOutput, rangeEntries } from "./_pr-weather-history.ts";

export default defineEndpoint({
  name: "weather-history",
  method: "GET",
  price: "$0.01",
  summary: "Past daily weather (temperature, precipitation, wind) for coordinates or a place, any day since 1940",
  description: `${historyDescription} Give \`lat\` and \`lon\`, or \`place\` (resolved once through the geocoder).`,
  input: v.object({ ...placeEntries, ...rangeEntries }),
  output: HistoryOutput,
  example: {
    input: { lat: 51.5072, lon: -0.1276, start: "2024-07-01", end: "2024-07-02" },
    output: {
      location: { lat: 51.5072, lon: -0.1276, name: null, countryCode: null, resolvedFrom: "coordinates" },
      zone: "Europe/London",
      elevation: 23,
      units: {
        temperatureMax: "°C",
        temperatureMin: "°C",
        temperatureMean: "°C",
        precipitationSum: "mm",
        windSpeedMax: "km/h",
        weatherCode: "wmo code",
      },
      days: [
        {
          date: "2024-07-01",
          temperatureMax: 18.9,
          temperatureMin: 11.6,
          temperatureMean: 15.1,
          precipitationSum: 0.2,
          windSpeedMax: 19.7,
          weatherCode: 51,
          weather: "light drizzle",
        },
        {
          date: "2024-07-02",
          temperatureMax: 17.6,
          temperatureMin: 12.4,
          temperatureMean: 14.9,
          precipitationSum: 1.4,
          windSpeedMax: 21.3,
          weatherCode: 53,
          weather: "moderate drizzle",
        },
      ],
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["open-meteo-archive", "open-meteo-geocoding"],
  async handler({ input, upstream, now }) {
    const range = checkRange(input, now());
    const location = await resolveLocation(() => upstream("open-meteo-geocoding"), input);
    return fetchHistory(upstream("open-meteo-archive"), location, range, input.units);
  },
});
