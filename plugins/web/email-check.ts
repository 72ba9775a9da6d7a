import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { lookup, mxHosts, resolverServers } from "../_shared/dns.ts";
import { isDisposable, isFreeProvider, isRoleAccount, parseAddress, suggestDomain } from "../_shared/email.ts";
import { publicName } from "./_names.ts";
import { webSettings } from "./_settings.ts";

const mailServers = ["mx", "a-fallback", "null-mx", "none"] as const;

export default defineEndpoint({
  name: "email-check",
  method: "GET",
  price: "$0.005",
  probes: true,
  summary: "Check an e-mail address: syntax, disposable provider, role account, typos and the domain's MX records",
  description:
    "Never connects to the mail server (no SMTP probing), so a mailbox's existence is not checked. MX records come " +
    "from the same resolvers as /v1/dns (DNS_SERVERS); a domain without MX falls back to its A/AAAA records (RFC 5321), " +
    "a null MX (RFC 7505) accepts no mail. Disposable domains come from the mailchecker list. Domains under private " +
    "or special-use suffixes (.local, .internal, ...) are refused.",
  input: v.object({
    email: v.pipe(v.string(), v.minLength(1), v.maxLength(320), v.description("E-mail address to check")),
  }),
  output: v.object({
    email: v.string(),
    syntaxValid: v.boolean(),
    normalized: v.nullable(v.pipe(v.string(), v.description("Local part as given, domain lower-cased"))),
    domain: v.nullable(v.string()),
    disposable: v.boolean(),
    roleAccount: v.pipe(v.boolean(), v.description("admin@, support@, noreply@ and the like")),
    freeProvider: v.boolean(),
    didYouMean: v.nullable(v.pipe(v.string(), v.description("A common provider the domain looks like a typo of"))),
    domainExists: v.nullable(v.boolean()),
    mx: v.array(v.object({ priority: v.number(), exchange: v.string() })),
    mailServer: v.nullable(
      v.pipe(
        v.picklist(mailServers),
        v.description("Where mail would go: MX hosts, the A/AAAA fallback, nowhere (null MX), or no server"),
      ),
    ),
    verdict: v.pipe(
      v.picklist(["valid", "risky", "invalid"]),
      v.description("invalid: bad syntax or no mail server; risky: disposable; valid otherwise"),
    ),
  }),
  example: {
    input: { email: "Jane.Doe@Example.com" },
    output: {
      email: "Jane.Doe@Example.com",
      syntaxValid: true,
      normalized: "Jane.Doe@example.com",
      domain: "example.com",
      disposable: false,
      roleAccount: false,
      freeProvider: false,
      didYouMean: null,
      domainExists: true,
      mx: [],
      mailServer: "null-mx",
      verdict: "invalid",
    },
  },
  cacheTtl: 3600,
  settings: webSettings,
  async handler({ input, signal, settings }) {
    const parsed = parseAddress(input.email.trim());
    if (!parsed) {
      return {
        email: input.email,
        syntaxValid: false,
        normalized: null,
        domain: null,
        disposable: false,
        roleAccount: false,
        freeProvider: false,
        didYouMean: null,
        domainExists: null,
        mx: [],
        mailServer: null,
        verdict: "invalid" as const,
      };
    }
    const domain = publicName(parsed.domain, "email");
    const route = await mailRoute(domain, settings.dnsServers, signal);
    const disposable = isDisposable(domain);
    const deliverable = route.mailServer === "mx" || route.mailServer === "a-fallback";
    return {
      email: input.email,
      syntaxValid: true,
      normalized: `${parsed.local}@${domain}`,
      domain,
      disposable,
      roleAccount: isRoleAccount(parsed.local),
      freeProvider: isFreeProvider(domain),
      didYouMean: suggestDomain(domain) ?? null,
      ...route,
      verdict: !deliverable ? ("invalid" as const) : disposable ? ("risky" as const) : ("valid" as const),
    };
  },
});

async function mailRoute(domain: string, configured: readonly string[], signal: AbortSignal) {
  const servers = resolverServers(configured);
  const mx = await lookup(domain, "MX", servers, signal);
  if (mx.status === "NXDOMAIN") return { domainExists: false, mx: [], mailServer: "none" as const };
  if (mx.records.length) {
    const { hosts, nullMx } = mxHosts(mx.records);
    return { domainExists: true, mx: hosts, mailServer: nullMx ? ("null-mx" as const) : ("mx" as const) };
  }
  for (const type of ["A", "AAAA"] as const) {
    if ((await lookup(domain, type, servers, signal)).records.length)
      return { domainExists: true, mx: [], mailServer: "a-fallback" as const };
  }
  return { domainExists: true, mx: [], mailServer: "none" as const };
}
