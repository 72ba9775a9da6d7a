import * as v from "valibot";
import { getAddress } from "viem";

/** A 0x EVM address, any case (checksums are not enforced: agents often lower-case them). */
export const addressField = (what: string) =>
  v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address of 40 hex digits"), v.description(what));

export const txHashField = (what: string) =>
  v.pipe(
    v.string(),
    v.regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x transaction hash of 64 hex digits"),
    v.description(what),
  );

/** Hex bytes with an even number of digits, capped so a call stays cheap to decode. */
export const hexBytesField = (what: string, maxBytes: number, minBytes = 0) =>
  v.pipe(
    v.string(),
    v.maxLength(2 + maxBytes * 2),
    v.regex(
      new RegExp(`^0x([0-9a-fA-F]{2}){${minBytes},}$`),
      `must be 0x followed by at least ${minBytes} bytes as hex digits`,
    ),
    v.description(what),
  );

/** A block number, or a tag the node understands. */
export const blockField = (what: string) =>
  v.pipe(
    v.string(),
    v.regex(
      /^(\d{1,12}|latest|safe|finalized|earliest)$/,
      "must be a block number or latest, safe, finalized, earliest",
    ),
    v.description(what),
  );

export const limitField = (fallback: number, max: number, what = "Most items to return") =>
  v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max), v.description(`${what} (1-${max})`)),
    fallback,
  );

/** The checksummed form of an address the caller gave in any case (a wrong mixed-case checksum is not our business). */
export const checksummed = (address: string) => getAddress(address.toLowerCase());
