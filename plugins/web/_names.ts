import net from "node:net";
import { badRequest } from "../../core/runtime/errors.ts";

/**
 * Special-use and private-network suffixes (RFC 6761, RFC 6762, RFC 8375, ICANN's .internal): names
 * under them only mean something inside someone's network, so looking them up is refused like a
 * private address.
 */
const privateSuffixes = [
  "localhost",
  "local",
  "internal",
  "intranet",
  "lan",
  "home",
  "corp",
  "private",
  "home.arpa",
  "invalid",
  "onion",
];

/** Lower-cased name without a trailing dot; a 400 for IP literals and names under private suffixes. */
export function publicName(raw: string, field = "name"): string {
  const name = raw.toLowerCase().replace(/\.$/, "");
  if (net.isIP(name)) throw badRequest(`${field} must be a domain name, not an IP address`, { [field]: raw });
  const suffix = privateSuffixes.find((s) => name === s || name.endsWith(`.${s}`));
  if (suffix)
    throw badRequest(`${raw} is under .${suffix}, a private or special-use name that is not looked up`, {
      [field]: raw,
    });
  return name;
}
