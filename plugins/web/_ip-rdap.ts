import ipaddr from "ipaddr.js";
import * as v from "valibot";
import type { Egress, Store, TargetResponse, Upstream } from "../../core/endpoint.ts";
import { notFound, ServiceError, checkUpstream } from "../../core/runtime/errors.ts";

const bootstrapTtlMs = 24 * 3600_000;

/** RFC 9224 section 5: `services` is a list of [[CIDR prefixes...], [base URLs...]]. */
const Bootstrap = v.object({ services: v.array(v.tuple([v.array(v.string()), v.array(v.string())])) });

/** IANA's ipv4.json or ipv6.json as (prefix, base URL) pairs, kept in the store for a day. */
async function bootstrapOf(version: 4 | 6, iana: Upstream, store: Store): Promise<[string, string][]> {
  const key = `web:rdap-bootstrap-ipv${version}`;
  const cached = await store.get<[string, string][]>(key);
  if (cached) return cached;
  const doc = await iana.json(`/ipv${version}.json`, Bootstrap);
  const pairs: [string, string][] = [];
  for (const [prefixes, urls] of doc.services) {
    const base = urls.find((u) => u.startsWith("https://")) ?? urls[0];
    if (base) for (const prefix of prefixes) pairs.push([prefix, base]);
  }
  await store.set(key, pairs, bootstrapTtlMs);
  return pairs;
}

/** The RDAP base of the registry that allocated the address: the longest bootstrap prefix containing it. */
export async function rdapBaseForIp(ip: ipaddr.IPv4 | ipaddr.IPv6, iana: Upstream, store: Store): Promise<string> {
  const version = ip.kind() === "ipv4" ? 4 : 6;
  let best: { length: number; base: string } | undefined;
  for (const [prefix, base] of await bootstrapOf(version, iana, store)) {
    try {
      const [range, length] = ipaddr.parseCIDR(prefix);
      if (range.kind() === ip.kind() && ip.match([range, length] as never) && length > (best?.length ?? -1))
        best = { length, base };
    } catch {}
  }
  if (!best)
    throw notFound(`${ip.toString()} is in no registry's allocation in IANA's RDAP bootstrap`, { ip: ip.toString() });
  return best.base;
}

interface RdapEntity {
  roles?: string[];
  vcardArray?: [string, [string, unknown, unknown, unknown][]];
  entities?: RdapEntity[];
}
const o = v.optional;
/** An entity's jCard (RFC 7095): ["vcard", [[name, parameters, type, value], ...]]. */
const VCard = v.tuple([v.string(), v.array(v.tuple([v.string(), v.unknown(), v.unknown(), v.unknown()]))]);
const RdapEntity: v.GenericSchema<RdapEntity> = v.object({
  roles: o(v.array(v.string())),
  vcardArray: o(VCard),
  entities: o(v.array(v.lazy(() => RdapEntity))),
});

/** The parts of an RFC 9083 ip network object this service reads (its `objectClassName` says it is one). */
const RdapNetwork = v.object({
  objectClassName: v.literal("ip network"),
  handle: o(v.string()),
  name: o(v.string()),
  type: o(v.string()),
  country: o(v.string()),
  startAddress: o(v.string()),
  endAddress: o(v.string()),
  events: o(v.array(v.object({ eventAction: o(v.string()), eventDate: o(v.string()) }))),
  entities: o(v.array(RdapEntity)),
  cidr0_cidrs: o(v.array(v.object({ v4prefix: o(v.string()), v6prefix: o(v.string()), length: o(v.number()) }))),
});
export type RdapNetwork = v.InferOutput<typeof RdapNetwork>;

/** GETs {base}ip/{address}; the base comes from IANA's data, so it goes through the egress guard (redirects between RIRs included). */
export async function fetchNetwork(egress: Egress, base: string, ip: string): Promise<RdapNetwork> {
  const url = `${base.endsWith("/") ? base : `${base}/`}ip/${ip}`;
  let res: TargetResponse;
  try {
    res = await egress.fetch(url, { headers: { accept: "application/rdap+json, application/json" } });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 504) throw error;
    throw new ServiceError(502, "upstream_error", `the RDAP server for ${ip} could not be used`, { upstream: url });
  }
  if (res.status === 404) throw notFound(`the registry has no network record for ${ip}`, { ip });
  if (res.status < 200 || res.status >= 300)
    throw new ServiceError(502, "upstream_error", `the RDAP server answered ${res.status}`, { upstream: url });
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text());
  } catch {
    throw new ServiceError(502, "upstream_error", "the RDAP server answered invalid JSON", { upstream: url });
  }
  return checkUpstream(url, RdapNetwork, parsed);
}

function vcardField(entity: RdapEntity, field: string): string | null {
  const value = entity.vcardArray?.[1]?.find((entry) => entry[0] === field)?.[3];
  return typeof value === "string" && value !== "" ? value : null;
}

/** Entities with a role, at any depth (abuse contacts sit inside the registrant). */
function withRole(entities: RdapEntity[] = [], role: string): RdapEntity[] {
  return entities.flatMap((e) => [...(e.roles?.includes(role) ? [e] : []), ...withRole(e.entities, role)]);
}

const isoDate = (network: RdapNetwork, action: string) => {
  const date = network.events?.find((e) => e.eventAction === action)?.eventDate;
  return date && !Number.isNaN(Date.parse(date)) ? new Date(date).toISOString() : null;
};

export function describeNetwork(network: RdapNetwork, rdapServer: string) {
  const registrant = withRole(network.entities, "registrant")[0];
  const abuse = withRole(network.entities, "abuse")[0];
  return {
    name: network.name ?? null,
    handle: network.handle ?? null,
    type: network.type ?? null,
    cidr: (network.cidr0_cidrs ?? []).flatMap((c) => {
      const prefix = c.v4prefix ?? c.v6prefix;
      return prefix && typeof c.length === "number" ? [`${prefix}/${c.length}`] : [];
    }),
    startAddress: network.startAddress ?? null,
    endAddress: network.endAddress ?? null,
    country: network.country ?? null,
    owner: registrant ? vcardField(registrant, "fn") : null,
    abuseEmail: abuse ? vcardField(abuse, "email") : null,
    registered: isoDate(network, "registration"),
    updated: isoDate(network, "last changed"),
    rdapServer,
  };
}
