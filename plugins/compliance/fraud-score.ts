import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { publicSuffixList } from "../_shared/public-suffix.ts";
import { chainField, chainInfo } from "../_shared/chains.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { isFreeProvider } from "../_shared/email.ts";
import { domainNameInput } from "../_shared/web-inputs.ts";
import { addressReport } from "./_address-security.ts";
import { domainAgeFactor, emailFactors, ipFactors } from "./_fraud-signals.ts";
import { ipField, requireOneOf } from "./_inputs.ts";
import { listedAddressFactor } from "./_listed-address.ts";
import { sanctionsUpstreams } from "./_sanctions-lists.ts";
import { factor, scoreOf, ScoreSchema, type Factor } from "./_score.ts";
import { complianceSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "fraud-score",
  method: "GET",
  price: "$0.05",
  probes: true,
  summary: "Explained fraud score of a sign-up or payment from its e-mail, IP, domain and/or wallet",
  description:
    "Give at least one of email, ip, domain, wallet. Each signal is a factor with its weight, what was seen and where: e-mail syntax (40), disposable provider (45), domain taking no mail (30), typo of a big provider (15), role account (5); domain registered under 90 days ago per its registry's RDAP record (30; the e-mail's domain is checked unless it is a free provider); IP in a private or reserved range (30), a Tor exit (50, Tor Project list); wallet on a sanctions list (100), flagged malicious or sanctioned by GoPlus (70), mixer use (40). The score is the sum of the triggered factors, capped at 100 (low < 20, medium < 50, high < 80, severe). No IP geolocation or VPN data: a screening aid, not a decision.",
  input: v.object({
    email: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(254),
        v.regex(/^[^@\s]+@[^@\s]+$/, "must look like an e-mail address"),
        v.description("E-mail address given by the customer"),
      ),
    ),
    ip: v.optional(ipField("The customer's IP address")),
    domain: v.optional(domainNameInput("The customer's website or company domain")),
    wallet: v.optional(addressField("The customer's EVM wallet")),
    chain: chainField(),
  }),
  output: v.object({
    checked: v.pipe(
      v.array(v.picklist(["email", "ip", "domain", "wallet"])),
      v.description("The inputs that were scored"),
    ),
    ...ScoreSchema,
  }),
  example: {
    input: { email: "jane@mailinator.com", ip: "185.220.101.1" },
    output: {
      checked: ["email", "ip"],
      score: 95,
      band: "severe",
      factors: [
        {
          name: "email-syntax",
          weight: 40,
          value: "valid",
          triggered: false,
          points: 0,
          source: "RFC 5321/5322 dot-atom check",
          explanation: "An address that cannot exist is a made-up identity.",
        },
        {
          name: "disposable-email",
          weight: 45,
          value: "true",
          triggered: true,
          points: 45,
          source: "mailchecker disposable-domain list",
          explanation: "Throwaway mailboxes are the usual choice for fake sign-ups and abuse.",
        },
        {
          name: "email-domain-no-mail",
          weight: 30,
          value: "MX mail.mailinator.com",
          triggered: false,
          points: 0,
          source: "DNS MX lookup",
          explanation: "A domain that accepts no mail cannot receive a confirmation: the address is not used.",
        },
        {
          name: "email-typo-domain",
          weight: 15,
          value: "no",
          triggered: false,
          points: 0,
          source: "edit distance to common providers",
          explanation: "A near-miss of a big provider is a typo or a look-alike domain.",
        },
        {
          name: "role-account",
          weight: 5,
          value: "false",
          triggered: false,
          points: 0,
          source: "list of role mailbox names",
          explanation: "Role addresses (admin@, info@) belong to no one person.",
        },
        {
          name: "young-domain",
          weight: 30,
          value: "mailinator.com registered 2003-04-29 (8606 days ago)",
          triggered: false,
          points: 0,
          source: "registry RDAP record (IANA bootstrap): https://rdap.verisign.com/com/v1/",
          explanation: "Domains registered less than 90 days ago are typical of fraud and phishing.",
        },
        {
          name: "ip-not-public",
          weight: 30,
          value: "public",
          triggered: false,
          points: 0,
          source: "ipaddr.js special-purpose ranges (RFC 6890)",
          explanation: "A private or reserved address cannot be a client's real address on the internet.",
        },
        {
          name: "tor-exit",
          weight: 50,
          value: "true",
          triggered: true,
          points: 50,
          source: "Tor Project bulk exit list (1794 exits)",
          explanation: "Tor exits hide the client's real address.",
        },
      ],
    },
  },
  cacheTtl: 3600,
  upstreams: ["iana-rdap", "tor-exit-list", "goplus", ...sanctionsUpstreams],
  timeoutMs: 180_000,
  settings: complianceSettings,
  async handler(ctx) {
    const { input, signal } = ctx;
    requireOneOf(input, ["email", "ip", "domain", "wallet"]);
    const factors: Factor[] = [];
    let domain = input.domain
      ? (publicSuffixList().getDomain(input.domain.toLowerCase().replace(/\.$/, "")) ?? undefined)
      : undefined;
    if (input.email) {
      const email = await emailFactors(input.email, ctx.settings.dnsServers, signal);
      factors.push(...email.factors);
      if (!domain && email.domain && !isFreeProvider(email.domain))
        domain = publicSuffixList().getDomain(email.domain) ?? undefined;
    }
    if (domain) factors.push(await domainAgeFactor(ctx, domain));
    if (input.ip) factors.push(...(await ipFactors(ctx, input.ip)));
    if (input.wallet) {
      const address = checksummed(input.wallet);
      const [listed, report] = await Promise.all([
        listedAddressFactor(ctx, address),
        addressReport(ctx.upstream("goplus"), address, chainInfo(input.chain).id),
      ]);
      const flags = [...(report.sanctioned ? ["sanctioned"] : []), ...report.malicious];
      factors.push(
        listed,
        factor(
          "wallet-flagged",
          70,
          flags.length > 0,
          flags.join(", ") || "none",
          report.source,
          "GoPlus links the wallet to sanctions or malicious activity.",
        ),
        factor(
          "wallet-mixer",
          40,
          report.mixer === true,
          String(report.mixer ?? "unknown"),
          report.source,
          "Funds passed through a mixer hide where they came from.",
        ),
      );
    }
    const checked = (["email", "ip", "domain", "wallet"] as const).filter((k) => input[k] !== undefined);
    return { checked: [...checked], ...scoreOf(factors) };
  },
});
