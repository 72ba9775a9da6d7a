import net from "node:net";
import ipaddr from "ipaddr.js";

const v4Labels: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT (shared)",
  private: "private",
};

const v6Labels: Record<string, string> = {
  unspecified: "unspecified",
  linkLocal: "link-local",
  multicast: "multicast",
  loopback: "loopback",
  uniqueLocal: "unique-local (private)",
  deprecatedSiteLocal: "site-local (private)",
  ipv4Mapped: "IPv4-mapped",
  rfc6145: "IPv4-translated",
  rfc6052: "NAT64",
  "6to4": "6to4",
  teredo: "Teredo",
};

const globalUnicast = ipaddr.parseCIDR("2000::/3");

/**
 * Why connecting to this address is refused, or undefined for a public unicast address. IPv6 forms
 * that carry an IPv4 address (mapped, compatible, translated, 6to4, Teredo, NAT64) are refused whatever
 * they carry: they are how an internal IPv4 address hides inside an IPv6 literal.
 */
export function addressRefusal(ip: string): string | undefined {
  if (net.isIP(ip) === 0) return "not an IP address";
  const address = ipaddr.parse(ip);
  const range = address.range();
  if (address.kind() === "ipv4") {
    if (range === "unicast") return undefined;
    if (ip === "169.254.169.254") return "link-local (cloud metadata)";
    return v4Labels[range] ?? reserved(range);
  }
  const v6 = address as ipaddr.IPv6;
  const label = v6Labels[range];
  if (label) {
    const embedded = embeddedIPv4(v6, range);
    return embedded ? `${label} (${embedded})` : label;
  }
  if (range !== "unicast") return reserved(range);
  if (v6.parts.slice(0, 6).every((part) => part === 0)) return `IPv4-compatible (${lowIPv4(v6)})`;
  if (!v6.match(globalUnicast)) return "reserved (outside global unicast)";
  return undefined;
}

export function isPublicAddress(ip: string): boolean {
  return addressRefusal(ip) === undefined;
}

function reserved(range: string): string {
  return range === "reserved" ? "reserved" : `reserved (${range})`;
}

function embeddedIPv4(v6: ipaddr.IPv6, range: string): string | undefined {
  const parts = v6.parts;
  if (range === "ipv4Mapped" || range === "rfc6145" || range === "rfc6052") return lowIPv4(v6);
  if (range === "6to4") return dotted(parts[1], parts[2]);
  // Teredo stores the client's address with every bit inverted.
  if (range === "teredo") return dotted(parts[6] ^ 0xffff, parts[7] ^ 0xffff);
  return undefined;
}

function lowIPv4(v6: ipaddr.IPv6): string {
  return dotted(v6.parts[6], v6.parts[7]);
}

function dotted(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}
