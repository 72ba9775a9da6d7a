import * as v from "valibot";
import { publicSuffixList } from "../_shared/public-suffix.ts";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { domainNameInput } from "../_shared/web-inputs.ts";
import { publicName } from "./_names.ts";
import { eventDate, fetchDomain, rdapBaseFor, registrarOf } from "../_shared/rdap.ts";

const isoDate = v.nullable(v.pipe(v.string(), v.description("ISO 8601 UTC")));

export default defineEndpoint({
  name: "whois",
  method: "GET",
  price: "$0.005",
  mcp: true,
  probes: true,
  summary: "Domain registration data over RDAP: registrar, dates, status, nameservers, DNSSEC",
  description:
    "Finds the registry's RDAP server in IANA's bootstrap file (RFC 9224, cached for a day) and reads " +
    "{server}/domain/{name} (RFC 9083). A sub-domain is looked up as its registrable domain. A domain the registry " +
    "does not know is a 404, and so is a TLD without RDAP (many ccTLDs); neither is charged. Contact details are " +
    "usually redacted by registries and are not returned.",
  input: v.object({
    domain: domainNameInput("Domain name, e.g. example.com (www.example.com is looked up as example.com)"),
  }),
  output: v.object({
    domain: v.string(),
    handle: v.nullable(v.string()),
    rdapServer: v.string(),
    registrar: v.nullable(
      v.object({ name: v.nullable(v.string()), ianaId: v.nullable(v.string()), abuseEmail: v.nullable(v.string()) }),
    ),
    created: isoDate,
    updated: isoDate,
    expires: isoDate,
    ageDays: v.nullable(v.number()),
    status: v.pipe(
      v.array(v.string()),
      v.description("EPP status values as RDAP words, e.g. client transfer prohibited"),
    ),
    nameservers: v.array(v.string()),
    dnssec: v.nullable(v.boolean()),
  }),
  example: {
    input: { domain: "example.com" },
    output: {
      domain: "example.com",
      handle: "2336799_DOMAIN_COM-VRSN",
      rdapServer: "https://rdap.verisign.com/com/v1/",
      registrar: { name: "RESERVED-Internet Assigned Numbers Authority", ianaId: "376", abuseEmail: null },
      created: "1995-08-14T04:00:00.000Z",
      updated: "2026-08-14T07:01:34.000Z",
      expires: "2027-08-13T04:00:00.000Z",
      ageDays: 11422,
      status: ["client delete prohibited", "client transfer prohibited", "client update prohibited"],
      nameservers: ["a.iana-servers.net", "b.iana-servers.net"],
      dnssec: true,
    },
  },
  cacheTtl: 21_600,
  upstreams: ["iana-rdap"],
  async handler({ input, upstream, egress, store, now }) {
    const name = publicName(input.domain, "domain");
    const domain = publicSuffixList().getDomain(name, { allowPrivateDomains: false });
    if (!domain)
      throw badRequest(`${input.domain} has no registrable domain (it is a public suffix or not under a known TLD)`, {
        domain: input.domain,
      });
    const rdapServer = await rdapBaseFor(domain, upstream("iana-rdap"), store);
    const record = await fetchDomain(egress, rdapServer, domain);
    const created = eventDate(record, "registration");
    return {
      domain,
      handle: record.handle ?? null,
      rdapServer,
      registrar: registrarOf(record),
      created,
      updated: eventDate(record, "last changed"),
      expires: eventDate(record, "expiration"),
      ageDays: created ? Math.floor((now().getTime() - Date.parse(created)) / 86_400_000) : null,
      status: record.status ?? [],
      nameservers: (record.nameservers ?? []).flatMap((ns) =>
        ns.ldhName ? [ns.ldhName.toLowerCase().replace(/\.$/, "")] : [],
      ),
      dnssec: typeof record.secureDNS?.delegationSigned === "boolean" ? record.secureDNS.delegationSigned : null,
    };
  },
});
