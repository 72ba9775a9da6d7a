import * as v from "valibot";
import type { Egress, Store, TargetResponse, Upstream } from "../../core/endpoint.ts";
import { notFound, ServiceError, checkUpstream } from "../../core/runtime/errors.ts";

// RDAP (RFC 9082/9083) as the service reads it: IANA's bootstrap files name each registry's server (RFC 9224),
// then one GET of a domain or an ip network object from that server.

const bootstrapTtlMs = 24 * 3600_000;

/** RFC 9224: `services` is a list of [[labels or CIDR prefixes...], [base URLs...]]. */
const Bootstrap = v.object({ services: v.array(v.tuple([v.array(v.string()), v.array(v.string())])) });

/** One of IANA's bootstrap files (dns.json, ipv4.json, ipv6.json) as (label or prefix, base URL) pairs, kept in the store for a day. */
export async function bootstrapPairs(
  file: "dns" | "ipv4" | "ipv6",
  iana: Upstream,
  store: Store,
): Promise<[string, string][]> {
  const key = `web:rdap-bootstrap:${file}`;
  const cached = await store.get<[string, string][]>(key);
  if (cached) return cached;
  const doc = await iana.json(`/${file}.json`, Bootstrap);
  const pairs: [string, string][] = [];
  for (const [entries, urls] of doc.services) {
    const base = urls.find((u) => u.startsWith("https://")) ?? urls[0];
    if (base) for (const entry of entries) pairs.push([entry.toLowerCase(), base]);
  }
  await store.set(key, pairs, bootstrapTtlMs);
  return pairs;
}

/**
 * GETs `{base}{kind}/{name}` from a registry and checks the object against `shape`. The base comes from IANA's
 * data, so it goes through the egress guard like any URL the service did not choose itself; any trouble there is
 * the registry failing, and its 404 is `missing`.
 */
export async function fetchRdap<S extends v.GenericSchema>(
  egress: Egress,
  request: { base: string; kind: "domain" | "ip"; name: string; missing: string; shape: S },
): Promise<v.InferOutput<S>> {
  const { base, kind, name } = request;
  const url = `${base.endsWith("/") ? base : `${base}/`}${kind}/${name}`;
  let res: TargetResponse;
  try {
    res = await egress.fetch(url, { headers: { accept: "application/rdap+json, application/json" } });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 504) throw error;
    throw new ServiceError(502, "upstream_error", `the RDAP server for ${name} could not be used`, { upstream: url });
  }
  if (res.status === 404) throw notFound(request.missing, { [kind]: name });
  if (res.status < 200 || res.status >= 300)
    throw new ServiceError(502, "upstream_error", `the RDAP server answered ${res.status}`, { upstream: url });
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text());
  } catch {
    throw new ServiceError(502, "upstream_error", "the RDAP server answered invalid JSON", { upstream: url });
  }
  return checkUpstream(url, request.shape, parsed);
}

export interface RdapEntity {
  roles?: string[];
  vcardArray?: [string, [string, unknown, unknown, unknown][]];
  publicIds?: { type?: string; identifier?: string }[];
  entities?: RdapEntity[];
}
const o = v.optional;
/** An entity's jCard (RFC 7095): ["vcard", [[name, parameters, type, value], ...]]. */
const VCard = v.tuple([v.string(), v.array(v.tuple([v.string(), v.unknown(), v.unknown(), v.unknown()]))]);
export const RdapEntity: v.GenericSchema<RdapEntity> = v.object({
  roles: o(v.array(v.string())),
  vcardArray: o(VCard),
  publicIds: o(v.array(v.object({ type: o(v.string()), identifier: o(v.string()) }))),
  entities: o(v.array(v.lazy(() => RdapEntity))),
});
export const RdapEvents = o(v.array(v.object({ eventAction: o(v.string()), eventDate: o(v.string()) })));

/** An event's date (registration, last changed, expiration) as ISO 8601, null when absent or unreadable. */
export function eventDate(object: { events?: v.InferOutput<typeof RdapEvents> }, action: string): string | null {
  const date = object.events?.find((e) => e.eventAction === action)?.eventDate;
  return date && !Number.isNaN(Date.parse(date)) ? new Date(date).toISOString() : null;
}

export function vcardField(entity: RdapEntity, field: string): string | null {
  const value = entity.vcardArray?.[1]?.find((entry) => entry[0] === field)?.[3];
  return typeof value === "string" && value !== "" ? value : null;
}

/** Entities with a role, at any depth (abuse contacts sit inside the registrant or the registrar). */
export function withRole(entities: RdapEntity[] = [], role: string): RdapEntity[] {
  return entities.flatMap((e) => [...(e.roles?.includes(role) ? [e] : []), ...withRole(e.entities, role)]);
}

/** The registry's RDAP base for a domain: the longest matching suffix in the bootstrap (RFC 9224 section 4). */
export async function rdapBaseFor(domain: string, iana: Upstream, store: Store): Promise<string> {
  const bases = new Map(await bootstrapPairs("dns", iana, store));
  const labels = domain.toLowerCase().split(".");
  for (let i = 1; i < labels.length; i++) {
    const base = bases.get(labels.slice(i).join("."));
    if (base) return base;
  }
  throw notFound(`.${labels[labels.length - 1]} has no RDAP service in IANA's bootstrap registry`, { domain });
}

/** The parts of an RFC 9083 domain object this service reads (its `objectClassName` says it is one). */
const RdapDomain = v.object({
  objectClassName: v.literal("domain"),
  handle: o(v.string()),
  status: o(v.array(v.string())),
  events: RdapEvents,
  entities: o(v.array(RdapEntity)),
  nameservers: o(v.array(v.object({ ldhName: o(v.string()) }))),
  secureDNS: o(v.object({ delegationSigned: o(v.boolean()) })),
});
export type RdapDomain = v.InferOutput<typeof RdapDomain>;

export const fetchDomain = (egress: Egress, base: string, domain: string): Promise<RdapDomain> =>
  fetchRdap(egress, {
    base,
    kind: "domain",
    name: domain,
    missing: `${domain} is not registered (the registry's RDAP server has no record of it)`,
    shape: RdapDomain,
  });

export function registrarOf(domain: RdapDomain) {
  const entity = domain.entities?.find((e) => e.roles?.includes("registrar"));
  if (!entity) return null;
  const abuse = entity.entities?.find((e) => e.roles?.includes("abuse"));
  return {
    name: vcardField(entity, "fn"),
    ianaId: entity.publicIds?.find((p) => p.type === "IANA Registrar ID")?.identifier ?? null,
    abuseEmail: abuse ? vcardField(abuse, "email") : null,
  };
}
