import { Resolver } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { resolverServers } from "../_shared/dns.ts";
import { describeNetwork, fetchNetwork, rdapBaseForIp } from "./_ip-rdap.ts";
import { webSettings } from "./_settings.ts";

const ipv4 = "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const ipv6 = `[0-9a-fA-F]{0,4}(:[0-9a-fA-F]{0,4}){2,7}(:${ipv4})?`;

const Network = v.object({
  name: v.nullable(v.string()),
  handle: v.pipe(v.nullable(v.string()), v.description("The registry's id of the network record")),
  type: v.nullable(v.string()),
  cidr: v.array(v.string()),
  startAddress: v.nullable(v.string()),
  endAddress: v.nullable(v.string()),
  country: v.pipe(
    v.nullable(v.string()),
    v.description("ISO code, when the registry gives one (RIPE, APNIC, LACNIC, AFRINIC; ARIN does not)"),
  ),
  owner: v.pipe(v.nullable(v.string()), v.description("The registrant organisation")),
  abuseEmail: v.nullable(v.string()),
  registered: v.nullable(v.string()),
  updated: v.nullable(v.string()),
  rdapServer: v.string(),
});

/** PTR names; null when the lookup itself failed (as opposed to an address without PTR: []). */
async function reverseNames(ip: string, configured: readonly string[], signal: AbortSignal): Promise<string[] | null> {
  const resolver = new Resolver({ timeout: 2500, tries: 2 });
  resolver.setServers(resolverServers(configured));
  const cancel = () => resolver.cancel();
  signal.addEventListener("abort", cancel, { once: true });
  try {
    return (await resolver.reverse(ip)).map((name) => name.replace(/\.$/, "").toLowerCase());
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === "ENOTFOUND" || code === "ENODATA" ? [] : null;
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

export default defineEndpoint({
  name: "ip-info",
  method: "GET",
  price: "$0.005",
  probes: true,
  summary:
    "Who runs an IP address: network owner, CIDR, country and abuse contact over RDAP, reverse DNS, and its scope",
  description:
    "Classifies the address (public, private, loopback, link-local, CGNAT, documentation and other reserved ranges) with ipaddr.js. A non-public address answers at once, with no lookup. A public one is looked up in the allocating registry's RDAP service (found through IANA's bootstrap files, cached for a day) for the network's name, CIDR, owner, country and abuse e-mail, and its PTR names are resolved. No geolocation: registry country is where the holder is registered, not where the address is used. Without `ip`, the caller's own address.",
  input: v.object({
    ip: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(45),
        v.regex(new RegExp(`^(${ipv4}|${ipv6})$`), "must be an IPv4 or IPv6 address"),
        v.description("IPv4 or IPv6 address; the caller's own when omitted"),
      ),
    ),
  }),
  output: v.object({
    ip: v.pipe(v.string(), v.description("Normalized; an IPv4-mapped IPv6 address as IPv4")),
    version: v.picklist([4, 6]),
    public: v.boolean(),
    scope: v.pipe(
      v.string(),
      v.description(
        "public, or ipaddr.js's range name: private, loopback, linkLocal, carrierGradeNat, reserved, multicast, uniqueLocal, ...",
      ),
    ),
    reverseDns: v.pipe(
      v.nullable(v.array(v.string())),
      v.description("PTR names; null when not looked up or the lookup failed"),
    ),
    network: v.nullable(Network),
  }),
  example: {
    input: { ip: "8.8.8.8" },
    output: {
      ip: "8.8.8.8",
      version: 4,
      public: true,
      scope: "public",
      reverseDns: ["dns.google"],
      network: {
        name: "GOGL",
        handle: "NET-8-8-8-0-2",
        type: "DIRECT ALLOCATION",
        cidr: ["8.8.8.0/24"],
        startAddress: "8.8.8.0",
        endAddress: "8.8.8.255",
        country: null,
        owner: "Google LLC",
        abuseEmail: "network-abuse@google.com",
        registered: "2023-12-28T22:24:33.000Z",
        updated: "2023-12-28T22:24:56.000Z",
        rdapServer: "https://rdap.arin.net/registry/",
      },
    },
  },
  // No answer cache: it is keyed by the input, and an empty input means each caller's own address.
  upstreams: ["iana-rdap"],
  settings: webSettings,
  async handler({ input, clientIp, upstream, egress, store, signal, settings }) {
    const given = input.ip ?? clientIp;
    if (!ipaddr.isValid(given))
      throw badRequest(`${given} is not an IP address`, {
        issues: [{ field: "ip", message: "must be an IPv4 or IPv6 address" }],
      });
    const parsed = ipaddr.process(given);
    const range = parsed.range();
    const ip = parsed.toString();
    const version = parsed.kind() === "ipv4" ? (4 as const) : (6 as const);
    if (range !== "unicast") return { ip, version, public: false, scope: range, reverseDns: null, network: null };
    const [rdapServer, reverseDns] = await Promise.all([
      rdapBaseForIp(parsed, upstream("iana-rdap"), store),
      reverseNames(ip, settings.dnsServers, signal),
    ]);
    const network = await fetchNetwork(egress, rdapServer, ip);
    return { ip, version, public: true, scope: "public", reverseDns, network: describeNetwork(network, rdapServer) };
  },
});
