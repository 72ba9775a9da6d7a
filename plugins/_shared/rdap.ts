import * as v from "valibot";
import type { Egress, Store, TargetResponse, Upstream } from "../../core/endpoint.ts";
import { notFound, ServiceError, checkUpstream } from "../../core/runtime/errors.ts";

const bootstrapKey = "web:rdap-bootstrap";
const bootstrapTtlMs = 24 * 3600_000;

/** RFC 9224 section 4: `services` is a list of [[labels...], [base URLs...]]. */
const Bootstrap = v.object({ services: v.array(v.tuple([v.array(v.string()), v.array(v.string())])) });

/** TLD (or longer suffix) -> RDAP base URL, from IANA's dns.json, kept in the store for a day. */
async function bootstrapMap(iana: Upstream, store: Store): Promise<Record<string, string>> {
  const cached = await store.get<Record<string, string>>(bootstrapKey);
  if (cached) return cached;
  const doc = await iana.json("/dns.json", Bootstrap);
  const map: Record<string, string> = {};
  for (const [labels, urls] of doc.services) {
    const base = urls.find((u) => u.startsWith("https://")) ?? urls[0];
    if (base) for (const label of labels) map[label.toLowerCase()] = base;
  }
  await store.set(bootstrapKey, map, bootstrapTtlMs);
  return map;
}

/** The registry's RDAP base for a domain: the longest matching suffix in the bootstrap (RFC 9224 section 4). */
export async function rdapBaseFor(domain: string, iana: Upstream, store: Store): Promise<string> {
  const map = await bootstrapMap(iana, store);
  const labels = domain.split(".");
  for (let i = 1; i < labels.length; i++) {
    const base = map[labels.slice(i).join(".")];
    if (base) return base;
  }
  throw notFound(`.${labels[labels.length - 1]} has no RDAP service in IANA's bootstrap registry`, { domain });
}

/**
 * GETs {base}domain/{name} from the registry. Its address comes from IANA's data, so it goes through the
 * egress guard like any URL the service did not choose itself; any trouble there is the registry failing.
 */
export async function fetchDomain(egress: Egress, base: string, domain: string): Promise<RdapDomain> {
  const url = `${base.endsWith("/") ? base : `${base}/`}domain/${domain}`;
  let res: TargetResponse;
  try {
    res = await egress.fetch(url, { headers: { accept: "application/rdap+json, application/json" } });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 504) throw error;
    throw new ServiceError(502, "upstream_error", `the RDAP server for ${domain} could not be used`, { upstream: url });
  }
  if (res.status === 404)
    throw notFound(`${domain} is not registered (the registry's RDAP server has no record of it)`, { domain });
  if (res.status < 200 || res.status >= 300)
    throw new ServiceError(502, "upstream_error", `the RDAP server answered ${res.status}`, { upstream: url });
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text());
  } catch {
    throw new ServiceError(502, "upstream_error", "the RDAP server answered invalid JSON", { upstream: url });
  }
  return checkUpstream(url, RdapDomain, parsed);
}

interface RdapEntity {
  roles?: string[];
  vcardArray?: [string, [string, unknown, unknown, unknown][]];
  publicIds?: { type?: string; identifier?: string }[];
  entities?: RdapEntity[];
}
const o = v.optional;
/** An entity's jCard (RFC 7095): ["vcard", [[name, parameters, type, value], ...]]. */
const VCard = v.tuple([v.string(), v.array(v.tuple([v.string(), v.unknown(), v.unknown(), v.unknown()]))]);
const RdapEntity: v.GenericSchema<RdapEntity> = v.object({
  roles: o(v.array(v.string())),
  vcardArray: o(VCard),
  publicIds: o(v.array(v.object({ type: o(v.string()), identifier: o(v.string()) }))),
  entities: o(v.array(v.lazy(() => RdapEntity))),
});

/** The parts of an RFC 9083 domain object this service reads (its `objectClassName` says it is one). */
const RdapDomain = v.object({
  objectClassName: v.literal("domain"),
  handle: o(v.string()),
  status: o(v.array(v.string())),
  events: o(v.array(v.object({ eventAction: o(v.string()), eventDate: o(v.string()) }))),
  entities: o(v.array(RdapEntity)),
  nameservers: o(v.array(v.object({ ldhName: o(v.string()) }))),
  secureDNS: o(v.object({ delegationSigned: o(v.boolean()) })),
});
export type RdapDomain = v.InferOutput<typeof RdapDomain>;

export function eventDate(domain: RdapDomain, action: string): string | null {
  const date = domain.events?.find((e) => e.eventAction === action)?.eventDate;
  return date && !Number.isNaN(Date.parse(date)) ? new Date(date).toISOString() : null;
}

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

function vcardField(entity: RdapEntity, field: string): string | null {
  const value = entity.vcardArray?.[1]?.find((entry) => entry[0] === field)?.[3];
  return typeof value === "string" && value !== "" ? value : null;
}
