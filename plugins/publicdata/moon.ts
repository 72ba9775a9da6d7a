import { DateTime } from "luxon";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { lazy } from "../../core/shared.ts";
import { datasetVersion } from "./_pr-datasets.ts";
import { ianaZone, isoDate, latitude, longitude } from "./_pr-inputs.ts";
import { localDay, localIso, round } from "./_pr-local-day.ts";

/** astronomy-engine, loaded on the first call rather than at boot. */
const astronomyEngine = lazy(() => import("astronomy-engine"));
type Astronomy = Awaited<ReturnType<typeof astronomyEngine>>;

const phaseNames = [
  "new moon",
  "waxing crescent",
  "first quarter",
  "waxing gibbous",
  "full moon",
  "waning gibbous",
  "last quarter",
  "waning crescent",
] as const;
const quarterKeys = ["newMoon", "firstQuarter", "fullMoon", "lastQuarter"] as const;
const Utc = v.pipe(v.string(), v.description("UTC, ISO 8601"));
const LocalTime = v.nullable(
  v.pipe(v.string(), v.description("Local time with UTC offset; null when it does not happen that day")),
);
const utc = (date: Date) => new Date(Math.round(date.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z");

export default defineEndpoint({
  name: "moon",
  method: "GET",
  price: "$0.001",
  summary: "Moon phase, illumination, age and the next quarters for a day; moonrise and moonset with a place",
  description:
    "Computed locally with astronomy-engine. The phase is for noon of `date` (local noon at the place when `lat` and `lon` are given, else 12:00 UTC). `phaseAngleDegrees` is the moon's ecliptic longitude minus the sun's (0 new, 180 full). With a place, moonrise and moonset are searched within the local calendar day and are null when they do not happen that day.",
  input: v.object({
    date: v.optional(isoDate("Calendar day, YYYY-MM-DD; defaults to today")),
    lat: v.optional(latitude("Latitude of the observer, for moonrise and moonset")),
    lon: v.optional(longitude("Longitude of the observer, for moonrise and moonset")),
    zone: v.optional(ianaZone("IANA time zone for local times; found from the coordinates when omitted")),
  }),
  output: v.object({
    date: v.string(),
    at: Utc,
    phase: v.picklist(phaseNames),
    phaseAngleDegrees: v.number(),
    illuminatedFraction: v.pipe(v.number(), v.description("0 (new) to 1 (full)")),
    ageDays: v.pipe(v.number(), v.description("Days since the last new moon")),
    waxing: v.boolean(),
    next: v.object({ newMoon: Utc, firstQuarter: Utc, fullMoon: Utc, lastQuarter: Utc }),
    place: v.nullable(v.object({ zone: v.string(), moonrise: LocalTime, moonset: LocalTime })),
    dataset: v.object({ astronomy: v.string(), zone: v.nullable(v.string()) }),
  }),
  example: {
    input: { date: "2025-09-07", lat: 48.8566, lon: 2.3522 },
    output: {
      date: "2025-09-07",
      at: "2025-09-07T10:00:00Z",
      phase: "full moon",
      phaseAngleDegrees: 175.51,
      illuminatedFraction: 0.9984,
      ageDays: 15.16,
      waxing: true,
      next: {
        newMoon: "2025-09-21T19:54:45Z",
        firstQuarter: "2025-09-29T23:54:29Z",
        fullMoon: "2025-09-07T18:09:24Z",
        lastQuarter: "2025-09-14T10:33:27Z",
      },
      place: { zone: "Europe/Paris", moonrise: "2025-09-07T20:17:36+02:00", moonset: "2025-09-07T06:36:14+02:00" },
      dataset: { astronomy: "astronomy-engine@2.1.19", zone: "@photostructure/tz-lookup@11.7.0" },
    },
  },
  async handler({ input, now }) {
    const Astronomy = await astronomyEngine();
    const hasPoint = input.lat !== undefined && input.lon !== undefined;
    if ((input.lat === undefined) !== (input.lon === undefined))
      throw fieldError(input.lat === undefined ? "lat" : "lon", "give both lat and lon");
    if (input.zone && !hasPoint) throw fieldError("zone", "zone needs lat and lon");
    const day = hasPoint
      ? localDay({ lat: input.lat!, lon: input.lon!, date: input.date, zone: input.zone }, now())
      : {
          zone: "UTC",
          start: (input.date
            ? DateTime.fromISO(input.date, { zone: "UTC" })
            : DateTime.fromJSDate(now(), { zone: "UTC" })
          ).startOf("day"),
          zoneSource: null,
        };
    if (!day.start.isValid) throw fieldError("date", `not a valid date: ${input.date}`);
    const at = day.start.plus({ hours: 12 }).toJSDate();
    const angle = Astronomy.MoonPhase(at);
    const next = Object.fromEntries(
      quarterKeys.map((key, quarter) => [key, utc(Astronomy.SearchMoonPhase(quarter * 90, at, 40)!.date)]),
    );
    return {
      date: day.start.toISODate() ?? "",
      at: utc(at),
      phase: phaseNames[Math.floor(((angle + 22.5) % 360) / 45)],
      phaseAngleDegrees: round(angle, 2),
      illuminatedFraction: round(Astronomy.Illumination(Astronomy.Body.Moon, at).phase_fraction, 4),
      ageDays: round(ageDays(Astronomy, at, angle), 2),
      waxing: angle < 180,
      next: next as Record<(typeof quarterKeys)[number], string>,
      place: hasPoint ? riseAndSet(Astronomy, input.lat!, input.lon!, day.start, day.zone) : null,
      dataset: { astronomy: datasetVersion("astronomy-engine"), zone: day.zoneSource },
    };
  },
});

/** Time since the previous new moon, found by searching just before the estimate from the phase angle. */
function ageDays(Astronomy: Astronomy, at: Date, angle: number) {
  const estimate = (angle / 360) * 29.530588;
  const previous = Astronomy.SearchMoonPhase(0, new Date(at.getTime() - (estimate + 2) * 86_400_000), 4);
  return previous && previous.date <= at ? (at.getTime() - previous.date.getTime()) / 86_400_000 : estimate;
}

function riseAndSet(Astronomy: Astronomy, lat: number, lon: number, start: DateTime, zone: string) {
  const observer = new Astronomy.Observer(lat, lon, 0);
  const end = start.plus({ days: 1 }).toJSDate();
  const within = (direction: 1 | -1) => {
    const found = Astronomy.SearchRiseSet(Astronomy.Body.Moon, observer, direction, start.toJSDate(), 1);
    return found && found.date < end ? localIso(found.date, zone) : null;
  };
  return { zone, moonrise: within(1), moonset: within(-1) };
}
