import ipaddr from "ipaddr.js";
import * as v from "valibot";
import type { EndpointContext } from "../../core/endpoint.ts";
import { ServiceError, checkUpstream } from "../../core/runtime/errors.ts";
import { lookup, mxHosts, resolverServers } from "../_shared/dns.ts";
import { isDisposable, isRoleAccount, parseAddress, suggestDomain } from "../_shared/email.ts";
import { eventDate, fetchDomain, rdapBaseFor } from "../_shared/rdap.ts";
import { factor, type Factor } from "./_score.ts";

type Ctx = EndpointContext<unknown>;
const youngDays = 90;

/** E-mail factors: syntax, throwaway provider, typo of a common provider, role account, and whether the domain takes mail. */
export async function emailFactors(
  email: string,
  dnsServers: readonly string[],
  signal: AbortSignal,
): Promise<{ factors: Factor[]; domain: string | null }> {
  const parsed = parseAddress(email);
  const syntax = factor(
    "email-syntax",
    40,
    !parsed,
    parsed ? "valid" : "invalid",
    "RFC 5321/5322 dot-atom check",
    "An address that cannot exist is a made-up identity.",
  );
  if (!parsed) return { factors: [syntax], domain: null };
  const mx = await lookup(parsed.domain, "MX", resolverServers(dnsServers), signal).catch(() => null);
  const { hosts, nullMx } = mx ? mxHosts(mx.records) : { hosts: [], nullMx: false };
  const mailValue = !mx
    ? "unknown (DNS lookup failed)"
    : mx.status === "NXDOMAIN"
      ? "domain does not exist"
      : nullMx
        ? "null MX (accepts no mail)"
        : hosts.length
          ? `MX ${hosts.map((h) => h.exchange).join(", ")}`
          : "no MX records";
  const typo = suggestDomain(parsed.domain);
  return {
    domain: parsed.domain,
    factors: [
      syntax,
      factor(
        "disposable-email",
        45,
        isDisposable(parsed.domain),
        String(isDisposable(parsed.domain)),
        "mailchecker disposable-domain list",
        "Throwaway mailboxes are the usual choice for fake sign-ups and abuse.",
      ),
      factor(
        "email-domain-no-mail",
        30,
        Boolean(mx) && hosts.length === 0,
        mailValue,
        "DNS MX lookup",
        "A domain that accepts no mail cannot receive a confirmation: the address is not used.",
      ),
      factor(
        "email-typo-domain",
        15,
        typo !== undefined,
        typo ? `looks like ${typo}` : "no",
        "edit distance to common providers",
        "A near-miss of a big provider is a typo or a look-alike domain.",
      ),
      factor(
        "role-account",
        5,
        isRoleAccount(parsed.local),
        String(isRoleAccount(parsed.local)),
        "list of role mailbox names",
        "Role addresses (admin@, info@) belong to no one person.",
      ),
    ],
  };
}

/** How long ago the domain was registered, from its registry's RDAP record; unknown (not triggered) when there is none. */
export async function domainAgeFactor(ctx: Ctx, domain: string): Promise<Factor> {
  const source = "registry RDAP record (IANA bootstrap)";
  const explanation = `Domains registered less than ${youngDays} days ago are typical of fraud and phishing.`;
  try {
    const base = await rdapBaseFor(domain, ctx.upstream("iana-rdap"), ctx.store);
    const created = eventDate(await fetchDomain(ctx.egress, base, domain), "registration");
    if (!created) return factor("young-domain", 30, false, "unknown (no registration date)", source, explanation);
    const days = Math.floor((ctx.now().getTime() - Date.parse(created)) / 86_400_000);
    return factor(
      "young-domain",
      30,
      days < youngDays,
      `${domain} registered ${created.slice(0, 10)} (${days} days ago)`,
      `${source}: ${base}`,
      explanation,
    );
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return factor("young-domain", 30, false, `unknown (${error.message})`, source, explanation);
  }
}

const torKey = "compliance:tor-exit-list";
/** What the code reads of the Tor Project's bulk exit list: one IPv4 address a line, never none. */
const TorExitList = v.pipe(v.array(v.pipe(v.string(), v.ipv4())), v.minLength(1));

/** IP factors: an address that cannot be a real client's, and a Tor exit node (the Tor Project's bulk list, cached an hour). */
export async function ipFactors(ctx: Ctx, ip: string): Promise<Factor[]> {
  const parsed = ipaddr.process(ip);
  const scope = parsed.range();
  const notPublic = factor(
    "ip-not-public",
    30,
    scope !== "unicast",
    scope === "unicast" ? "public" : scope,
    "ipaddr.js special-purpose ranges (RFC 6890)",
    "A private or reserved address cannot be a client's real address on the internet.",
  );
  const torExplanation = "Tor exits hide the client's real address.";
  if (scope !== "unicast")
    return [
      notPublic,
      factor("tor-exit", 50, false, "not checked (not a public address)", "Tor Project bulk exit list", torExplanation),
    ];
  if (parsed.kind() !== "ipv4")
    return [
      notPublic,
      factor(
        "tor-exit",
        50,
        false,
        "not checked (the bulk list holds IPv4 only)",
        "Tor Project bulk exit list",
        torExplanation,
      ),
    ];
  let exits = await ctx.store.get<string[]>(torKey);
  if (!exits) {
    const text = await ctx.upstream("tor-exit-list").text("/torbulkexitlist");
    exits = checkUpstream(
      "tor-exit-list",
      TorExitList,
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    );
    await ctx.store.set(torKey, exits, 3600_000);
  }
  const isExit = exits.includes(parsed.toString());
  return [
    notPublic,
    factor(
      "tor-exit",
      50,
      isExit,
      String(isExit),
      `Tor Project bulk exit list (${exits.length} exits)`,
      torExplanation,
    ),
  ];
}
