import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { lookup, recordTypes, resolverChoices, resolverServers } from "../_shared/dns.ts";
import { domainNameInput } from "../_shared/web-inputs.ts";
import { publicName } from "./_names.ts";
import { webSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "dns",
  method: "GET",
  price: "$0.005",
  mcp: true,
  probes: true,
  summary: "Look up DNS records (A, AAAA, MX, TXT, NS, CNAME, SOA, CAA, SRV) for a name",
  description:
    "Queries public recursive resolvers: the operator's DNS_SERVERS (comma-separated ip or ip:port), by default " +
    "Cloudflare and Google, or one of the well-known resolvers named in `resolver`. NXDOMAIN and NODATA are answers " +
    "with no records; a resolver that fails or times out is a 502. TTLs are reported for A and AAAA only. Names under " +
    "private or special-use suffixes (.local, .internal, .localhost, .home.arpa, ...) are refused.",
  input: v.object({
    name: domainNameInput("Domain name to look up, e.g. example.com or _dmarc.example.com"),
    type: v.optional(v.pipe(v.picklist(recordTypes), v.description("Record type")), "A"),
    resolver: v.optional(
      v.pipe(
        v.picklist(resolverChoices),
        v.description("Which resolvers answer: the service's configured ones, or Cloudflare, Google or Quad9"),
      ),
      "configured",
    ),
  }),
  output: v.object({
    name: v.string(),
    type: v.picklist(recordTypes),
    status: v.pipe(
      v.picklist(["NOERROR", "NXDOMAIN", "NODATA"]),
      v.description("NXDOMAIN: the name does not exist; NODATA: it exists without records of this type"),
    ),
    records: v.array(
      v.object({
        type: v.picklist(recordTypes),
        data: v.pipe(v.string(), v.description("Presentation format, as in a zone file")),
        ttl: v.optional(v.pipe(v.number(), v.description("Seconds (A and AAAA only)"))),
      }),
    ),
    resolvers: v.array(v.string()),
  }),
  example: {
    input: { name: "example.com", type: "MX" },
    output: {
      name: "example.com",
      type: "MX",
      status: "NOERROR",
      records: [{ type: "MX", data: "0 ." }],
      resolvers: ["1.1.1.1", "1.0.0.1", "8.8.8.8", "8.8.4.4"],
    },
  },
  cacheTtl: 60,
  settings: webSettings,
  async handler({ input, signal, settings }) {
    const name = publicName(input.name);
    const servers = resolverServers(settings.dnsServers, input.resolver);
    const answer = await lookup(name, input.type, servers, signal);
    return { name, type: input.type, status: answer.status, records: answer.records, resolvers: servers };
  },
});
