import * as v from "valibot";

/** An absolute http(s) URL a caller supplies; the egress guard decides whether it may be reached. */
export function urlInput(description: string) {
  return v.pipe(
    v.string(),
    v.maxLength(2048),
    v.url(),
    v.regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\//, "must be an http:// or https:// URL"),
    v.description(description),
  );
}

/** A host name or an IPv4/IPv6 literal, without scheme, port or path. */
export function hostInput(description: string) {
  return v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(253),
    v.regex(
      /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$|^[0-9A-Fa-f:.]+$/,
      "must be a host name or an IP address",
    ),
    v.description(description),
  );
}

/** A DNS name (letters, digits, hyphens, underscores for SRV/DMARC labels, dots). */
export function domainNameInput(description: string) {
  return v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(253),
    v.regex(
      /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*\.?$/,
      "must be a domain name",
    ),
    v.description(description),
  );
}

export const portInput = v.optional(
  v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(65535),
    v.description("TCP port of the TLS service; the egress guard only lets 443 through"),
  ),
  443,
);
