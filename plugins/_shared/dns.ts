import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import type { Env } from "../../core/endpoint.ts";
import { listSetting } from "../../core/runtime/settings.ts";
import { targetError } from "./target.ts";

export const recordTypes = ["A", "AAAA", "MX", "TXT", "NS", "CNAME", "SOA", "CAA", "SRV"] as const;
export type RecordType = (typeof recordTypes)[number];

export const resolverChoices = ["configured", "cloudflare", "google", "quad9"] as const;
export type ResolverChoice = (typeof resolverChoices)[number];

const wellKnown: Record<Exclude<ResolverChoice, "configured">, string[]> = {
  cloudflare: ["1.1.1.1", "1.0.0.1"],
  google: ["8.8.8.8", "8.8.4.4"],
  quad9: ["9.9.9.9", "149.112.112.112"],
};

/**
 * The servers a lookup goes to. "configured" is the family's DNS_SERVERS setting (comma-separated `ip` or
 * `ip:port`, how tests point lookups at a loopback responder), else Cloudflare and Google.
 * Callers never name a server themselves, so a lookup cannot be aimed at an internal address.
 */
export function resolverServers(configured: readonly string[], choice: ResolverChoice = "configured"): string[] {
  if (choice !== "configured") return wellKnown[choice];
  return configured.length ? [...configured] : [...wellKnown.cloudflare, ...wellKnown.google];
}

/** DNS_SERVERS, each entry one that Node's resolver takes (`1.1.1.1`, `127.0.0.1:5353`, `[::1]:53`). */
export function dnsServers(env: Env): string[] {
  return listSetting("DNS_SERVERS", env, isDnsServer, "comma-separated DNS server addresses (ip or ip:port)");
}

function isDnsServer(entry: string): boolean {
  if (isIP(entry)) return true;
  const withPort = /^\[([^\]]+)\]:(\d{1,5})$/.exec(entry) ?? /^([^:[\]]+):(\d{1,5})$/.exec(entry);
  return withPort !== null && isIP(withPort[1]) !== 0 && Number(withPort[2]) <= 65_535;
}

export interface DnsRecord {
  type: RecordType;
  /** Presentation format, as in a zone file (MX "10 mail.example.com"). */
  data: string;
  /** Seconds; only A and AAAA answers carry it through the system resolver library. */
  ttl?: number;
}

export type DnsStatus = "NOERROR" | "NXDOMAIN" | "NODATA";

export interface DnsAnswer {
  status: DnsStatus;
  records: DnsRecord[];
}

/** Runs one query; NXDOMAIN and "no records of this type" are answers, a failing server is a 502. */
export async function lookup(
  name: string,
  type: RecordType,
  servers: string[],
  signal?: AbortSignal,
): Promise<DnsAnswer> {
  const resolver = new Resolver({ timeout: 2500, tries: 2 });
  resolver.setServers(servers);
  const cancel = () => resolver.cancel();
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    const records = await query(resolver, `${name}.`, type);
    return { status: "NOERROR", records };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOTFOUND") return { status: "NXDOMAIN", records: [] };
    if (code === "ENODATA") return { status: "NODATA", records: [] };
    throw targetError(`the DNS lookup of ${name} ${type} failed (${code ?? "error"})`, { name, type, reason: code });
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
}

async function query(r: Resolver, fqdn: string, type: RecordType): Promise<DnsRecord[]> {
  const bare = (host: string) => host.replace(/\.$/, "");
  switch (type) {
    case "A":
      return (await r.resolve4(fqdn, { ttl: true })).map((a) => ({ type, data: a.address, ttl: a.ttl }));
    case "AAAA":
      return (await r.resolve6(fqdn, { ttl: true })).map((a) => ({ type, data: a.address, ttl: a.ttl }));
    case "MX":
      return (await r.resolveMx(fqdn))
        .sort((a, b) => a.priority - b.priority)
        .map((m) => ({ type, data: `${m.priority} ${bare(m.exchange) || "."}` }));
    case "TXT":
      return (await r.resolveTxt(fqdn)).map((chunks) => ({ type, data: chunks.join("") }));
    case "NS":
      return (await r.resolveNs(fqdn)).map((ns) => ({ type, data: bare(ns) }));
    case "CNAME":
      return (await r.resolveCname(fqdn)).map((target) => ({ type, data: bare(target) }));
    case "SOA": {
      const s = await r.resolveSoa(fqdn);
      return [
        { type, data: `${s.nsname} ${s.hostmaster} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minttl}` },
      ];
    }
    case "CAA":
      return (await r.resolveCaa(fqdn)).map((c) => ({ type, data: caaData(c) }));
    case "SRV":
      return (await r.resolveSrv(fqdn)).map((s) => ({
        type,
        data: `${s.priority} ${s.weight} ${s.port} ${bare(s.name)}`,
      }));
  }
}

/** Node gives a CAA record as { critical, <tag>: value }. */
function caaData(record: object): string {
  const entries = Object.entries(record);
  const critical = entries.find(([key]) => key === "critical")?.[1] ?? 0;
  const [tag, value] = entries.find(([key]) => key !== "critical") ?? ["issue", ""];
  return `${critical} ${tag} "${String(value)}"`;
}

/** MX hosts, best first; a null MX (RFC 7505, exchange ".") comes back as an empty list with `nullMx`. */
export function mxHosts(records: DnsRecord[]): { hosts: { priority: number; exchange: string }[]; nullMx: boolean } {
  const hosts = records.map((r) => {
    const [priority, exchange] = r.data.split(" ");
    return { priority: Number(priority), exchange };
  });
  const nullMx = hosts.length === 1 && hosts[0].exchange === ".";
  return { hosts: nullMx ? [] : hosts, nullMx };
}
