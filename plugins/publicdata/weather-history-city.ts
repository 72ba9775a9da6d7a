import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { resolveLocation } from "./_pr-geocode.ts";
import { countryCode } from "./_pr-inputs.ts";
import { checkRange, fetchHistory, historyDescription, HistoryOutput, rangeEntries } from "./_pr-weather-history.ts";

export default defineEndpoint({
  name: "weather-history-city",
  method: "GET",
  price: "$0.01",
  summary: "Past daily weather for a city by name (geocoded), any day since 1940",
  description: `${historyDescription} The city is resolved once through the geocoder; the match is in \`location\` so an ambiguous name can be spotted (add \`country\`).`,
  input: v.object({
    city: v.pipe(v.string(), v.minLength(2), v.maxLength(100), v.description("City name, e.g. Lisbon")),
    country: v.optional(countryCode("Narrows the city search to this country")),
    ...rangeEntries,
  }),
  output: HistoryOutput,
  example: {
    input: { city: "Lisbon", country: "PT", start: "2024-08-15" },
    output: {
      location: { lat: 38.71667, lon: -9.13333, name: "Lisbon", countryCode: "PT", resolvedFrom: "geocode" },
      zone: "Europe/Lisbon",
      elevation: 45,
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
          date: "2024-08-15",
          temperatureMax: 29.8,
          temperatureMin: 19.2,
          temperatureMean: 23.9,
          precipitationSum: 0,
          windSpeedMax: 22.1,
          weatherCode: 0,
          weather: "clear sky",
        },
      ],
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["open-meteo-archive", "open-meteo-geocoding"],
  async handler({ input, upstream, now }) {
    const range = checkRange(input, now());
    const location = await resolveLocation(() => upstream("open-meteo-geocoding"), {
      place: input.city,
      country: input.country,
    });
    return fetchHistory(upstream("open-meteo-archive"), location, range, input.units);
  },
});
