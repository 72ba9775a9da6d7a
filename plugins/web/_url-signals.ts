import net from "node:net";
import { domainToUnicode } from "node:url";
import { publicSuffixList } from "../_shared/public-suffix.ts";

export type Severity = "info" | "warning" | "danger";

export interface Signal {
  id: string;
  severity: Severity;
  message: string;
}

/** What the URL's own text says about it, without any request. */
export function lexicalSignals(raw: string): Signal[] {
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const signals: Signal[] = [];
  if (url.protocol === "http:")
    signals.push({
      id: "no-https",
      severity: "warning",
      message: "The URL is plain HTTP: traffic can be read and changed on the way.",
    });
  if (net.isIP(host))
    signals.push({
      id: "ip-host",
      severity: "warning",
      message: "The host is a bare IP address; legitimate sites almost always use a name.",
    });
  if (host.split(".").some((label) => label.startsWith("xn--"))) {
    signals.push({
      id: "punycode-host",
      severity: "warning",
      message: "The host contains internationalized labels (xn--) that can imitate other names.",
    });
  }
  const domain = publicSuffixList().getDomain(host) ?? host;
  const subdomainLabels = host.length > domain.length ? host.slice(0, -domain.length - 1).split(".").length : 0;
  if (subdomainLabels >= 4)
    signals.push({
      id: "deep-subdomain",
      severity: "info",
      message: `The host has ${subdomainLabels} sub-domain levels, a pattern phishing links use to hide the real domain.`,
    });
  if ((domainToUnicode(domain).split(".")[0].match(/-/g) ?? []).length >= 3)
    signals.push({ id: "hyphenated-domain", severity: "info", message: "The domain has many hyphens." });
  if (raw.length > 200)
    signals.push({ id: "long-url", severity: "info", message: `The URL is ${raw.length} characters long.` });
  return signals;
}

/** What the redirect chain says: a move to another site, a downgrade to HTTP, a long chain. */
export function redirectSignals(start: string, finalUrl: string, redirects: string[]): Signal[] {
  const signals: Signal[] = [];
  const from = new URL(start);
  const to = new URL(finalUrl);
  const site = (u: URL) => publicSuffixList().getDomain(u.hostname) ?? u.hostname;
  if (site(from) !== site(to))
    signals.push({
      id: "cross-site-redirect",
      severity: "warning",
      message: `The URL redirects to another site: ${site(to)}.`,
    });
  if (from.protocol === "https:" && redirects.some((r) => r.startsWith("http://"))) {
    signals.push({ id: "https-downgrade", severity: "danger", message: "An HTTPS URL redirects through plain HTTP." });
  }
  if (redirects.length >= 3)
    signals.push({
      id: "long-redirect-chain",
      severity: "info",
      message: `${redirects.length} redirects before the final page.`,
    });
  return signals;
}

export function verdictOf(signals: Signal[]): "ok" | "caution" | "danger" {
  if (signals.some((s) => s.severity === "danger")) return "danger";
  if (signals.some((s) => s.severity === "warning")) return "caution";
  return "ok";
}
