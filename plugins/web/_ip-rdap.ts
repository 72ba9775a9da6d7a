import ipaddr from "ipaddr.js";
import * as v from "valibot";
import type { Egress, Store, Upstream } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { bootstrapPairs, eventDate, fetchRdap, RdapEntity, RdapEvents, vcardField, withRole } from "../_shared/rdap.ts";

/** The RDAP base of the registry that allocated the address: the longest bootstrap prefix containing it. */
export async function rdapBaseForIp(ip: ipaddr.IPv4 | ipaddr.IPv6, iana: Upstream, store: Store): Promise<string> {
  let best: { length: number; base: string } | undefined;
  for (const [prefix, base] of await bootstrapPairs(ip.kind() === "ipv4" ? "ipv4" : "ipv6", iana, store)) {
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

const o = v.optional;
/** The parts of an RFC 9083 ip network object this service reads (its `objectClassName` says it is one). */
const RdapNetwork = v.object({
  objectClassName: v.literal("ip network"),
  handle: o(v.string()),
  name: o(v.string()),
  type: o(v.string()),
  country: o(v.string()),
  startAddress: o(v.string()),
  endAddress: o(v.string()),
  events: RdapEvents,
  entities: o(v.array(RdapEntity)),
  cidr0_cidrs: o(v.array(v.object({ v4prefix: o(v.string()), v6prefix: o(v.string()), length: o(v.number()) }))),
});
export type RdapNetwork = v.InferOutput<typeof RdapNetwork>;

export const fetchNetwork = (egress: Egress, base: string, ip: string): Promise<RdapNetwork> =>
  fetchRdap(egress, {
    base,
    kind: "ip",
    name: ip,
    missing: `the registry has no network record for ${ip}`,
    shape: RdapNetwork,
  });

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
    registered: eventDate(network, "registration"),
    updated: eventDate(network, "last changed"),
    rdapServer,
  };
}
