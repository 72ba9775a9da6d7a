import * as v from "valibot";
import { badRequest } from "../../core/runtime/errors.ts";

/** A digital-currency address as OFAC lists them: EVM 0x, base58 (Bitcoin legacy, TRON, Monero...) or bech32 (bc1, ltc1...). */
export const cryptoAddressField = (what: string) =>
  v.pipe(
    v.string(),
    v.maxLength(120),
    v.regex(
      /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{25,110}|[a-zA-Z]{1,10}1[02-9ac-hj-np-zAC-HJ-NP-Z]{6,90})$/,
      "must be a digital-currency address: 0x and 40 hex digits, base58 or bech32",
    ),
    v.description(what),
  );

/** For inputs where at least one of several optional fields is needed (`oneOf` is for exactly one). */
export function requireOneOf(input: Record<string, unknown>, fields: string[]): void {
  if (fields.some((f) => input[f] !== undefined)) return;
  const message = `Give at least one of: ${fields.join(", ")}`;
  throw badRequest(message, { issues: fields.map((field) => ({ field, message })) });
}

const ipv4 = "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const ipv6 = `[0-9a-fA-F]{0,4}(:[0-9a-fA-F]{0,4}){2,7}(:${ipv4})?`;

export const ipField = (what: string) =>
  v.pipe(
    v.string(),
    v.maxLength(45),
    v.regex(new RegExp(`^(${ipv4}|${ipv6})$`), "must be an IPv4 or IPv6 address"),
    v.description(what),
  );
