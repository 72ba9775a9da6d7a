import * as v from "valibot";
import * as SunCalc from "suncalc";
import { defineEndpoint } from "../../core/endpoint.ts";
import { datasetVersion } from "./_pr-datasets.ts";
import { ianaZone, isoDate, latitude, longitude } from "./_pr-inputs.ts";
import { localDay, localIso, round } from "./_pr-local-day.ts";

const Time = v.nullable(
  v.pipe(v.string(), v.description("Local time with UTC offset, ISO 8601; null when it does not happen that day")),
);

export default defineEndpoint({
  name: "sun",
  method: "GET",
  price: "$0.005",
  summary: "Sunrise, sunset, twilights, golden hour, day length and the sun's noon altitude for a place and day",
  description:
    "Computed locally with suncalc (degrees; sunrise and sunset at the sun's upper limb with refraction). Times are local to the place's zone (given, or found from the point with tz-lookup). In polar day or night sunrise and sunset are null and `polar` says which.",
  input: v.object({
    lat: latitude(),
    lon: longitude(),
    date: v.optional(isoDate("Local calendar day, YYYY-MM-DD; defaults to today at the place")),
    zone: v.optional(ianaZone("IANA time zone for the answer; found from the coordinates when omitted")),
  }),
  output: v.object({
    date: v.string(),
    zone: v.string(),
    sunrise: Time,
    sunset: Time,
    solarNoon: Time,
    civilDawn: Time,
    civilDusk: Time,
    nauticalDawn: Time,
    nauticalDusk: Time,
    astronomicalDawn: Time,
    astronomicalDusk: Time,
    goldenHourMorningEnd: Time,
    goldenHourEveningStart: Time,
    dayLengthSeconds: v.pipe(v.number(), v.description("Sunrise to sunset; 86400 in polar day, 0 in polar night")),
    noonAltitudeDegrees: v.pipe(v.number(), v.description("Sun's altitude above the horizon at solar noon")),
    polar: v.nullable(v.picklist(["day", "night"])),
    dataset: v.object({ astronomy: v.string(), zone: v.nullable(v.string()) }),
  }),
  example: {
    input: { lat: 51.4779, lon: -0.0015, date: "2025-06-21" },
    output: {
      date: "2025-06-21",
      zone: "Europe/London",
      sunrise: "2025-06-21T04:42:48+01:00",
      sunset: "2025-06-21T21:20:58+01:00",
      solarNoon: "2025-06-21T13:01:53+01:00",
      civilDawn: "2025-06-21T03:55:05+01:00",
      civilDusk: "2025-06-21T22:08:40+01:00",
      nauticalDawn: "2025-06-21T02:40:38+01:00",
      nauticalDusk: "2025-06-21T23:23:07+01:00",
      astronomicalDawn: null,
      astronomicalDusk: null,
      goldenHourMorningEnd: "2025-06-21T05:37:01+01:00",
      goldenHourEveningStart: "2025-06-21T20:26:46+01:00",
      dayLengthSeconds: 59890,
      noonAltitudeDegrees: 61.97,
      polar: null,
      dataset: { astronomy: "suncalc@2.0.2", zone: "@photostructure/tz-lookup@11.7.0" },
    },
  },
  handler({ input, now }) {
    const day = localDay(input, now());
    const noon = day.start.plus({ hours: 12 }).toJSDate();
    const t = SunCalc.getTimes(noon, input.lat, input.lon);
    const at = (date: Date | null | undefined) => localIso(date, day.zone);
    const polar = t.alwaysUp ? ("day" as const) : t.alwaysDown ? ("night" as const) : null;
    const dayLength =
      t.sunrise && t.sunset ? (t.sunset.getTime() - t.sunrise.getTime()) / 1000 : polar === "day" ? 86_400 : 0;
    return {
      date: day.date,
      zone: day.zone,
      sunrise: at(t.sunrise),
      sunset: at(t.sunset),
      solarNoon: at(t.solarNoon),
      civilDawn: at(t.dawn),
      civilDusk: at(t.dusk),
      nauticalDawn: at(t.nauticalDawn),
      nauticalDusk: at(t.nauticalDusk),
      astronomicalDawn: at(t.nightEnd),
      astronomicalDusk: at(t.night),
      goldenHourMorningEnd: at(t.goldenHourEnd),
      goldenHourEveningStart: at(t.goldenHour),
      dayLengthSeconds: Math.round(dayLength),
      noonAltitudeDegrees: round(SunCalc.getPosition(t.solarNoon, input.lat, input.lon).altitude, 2),
      polar,
      dataset: { astronomy: datasetVersion("suncalc"), zone: day.zoneSource },
    };
  },
});
