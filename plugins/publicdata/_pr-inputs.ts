import * as v from "valibot";

export const latitude = (description = "Latitude in decimal degrees (WGS 84), -90 to 90") =>
  v.pipe(v.number(), v.minValue(-90), v.maxValue(90), v.description(description));

export const longitude = (description = "Longitude in decimal degrees (WGS 84), -180 to 180") =>
  v.pipe(v.number(), v.minValue(-180), v.maxValue(180), v.description(description));

export const isoDate = (description: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, "must be a date YYYY-MM-DD"),
    v.description(description),
  );

export const countryCode = (description = "ISO 3166-1 alpha-2 country code, e.g. FR") =>
  v.pipe(
    v.string(),
    v.regex(/^[A-Za-z]{2}$/, "must be a two-letter ISO 3166-1 country code"),
    v.description(description),
  );

export const ianaZone = (description: string) =>
  v.pipe(
    v.string(),
    v.maxLength(64),
    v.regex(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, "must be an IANA time zone name such as Europe/Paris"),
    v.description(description),
  );

export const limit = (max: number, fallback: number, what = "results") =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(max),
      v.description(`Most ${what} to return, 1 to ${max}`),
    ),
    fallback,
  );
