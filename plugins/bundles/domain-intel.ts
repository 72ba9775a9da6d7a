import * as v from "valibot";
import { defineBundle } from "./_compose.ts";
import { figure } from "./_digest.ts";
import { DomainInput, type WhoisData } from "./_entity.ts";
import { examples } from "./_examples.ts";
import { certDaysLeft, type CertData } from "./_site.ts";

interface DnsData {
  records?: { data: string }[];
}

const records = (data: unknown) => ((data as DnsData | undefined)?.records ?? []).map((r) => r.data);

export default defineBundle({
  name: "domain-intel",
  price: "$0.05",
  summary:
    "Domain intelligence: DNS (A, AAAA, MX, NS, TXT, SPF, DMARC), RDAP registration and age, TLS certificate, security headers, tech stack, phishing lists, HTTP reachability",
  description:
    "Composes dns (A, AAAA, MX, NS, TXT and the _dmarc TXT record), whois, ssl-certificate, security-headers, tech-stack, http-check (of https://<domain>/) and phishing-check. " +
    "The summary reads the registrar, age and expiry, whether mail is authenticated (an SPF TXT record, a DMARC record), the certificate's trust and days remaining, the security-headers grade, the detected technologies and the phishing-list verdict. Subdomains from certificate logs are not included.",
  input: v.object({ domain: DomainInput }),
  parts: {
    a: "dns",
    aaaa: "dns",
    mx: "dns",
    ns: "dns",
    txt: "dns",
    dmarc: "dns",
    whois: "whois",
    tls: "ssl-certificate",
    headers: "security-headers",
    tech: "tech-stack",
    http: "http-check",
    phishing: "phishing-check",
  },
  plan({ domain }) {
    const url = `https://${domain}/`;
    return {
      a: { name: domain, type: "A" },
      aaaa: { name: domain, type: "AAAA" },
      mx: { name: domain, type: "MX" },
      ns: { name: domain, type: "NS" },
      txt: { name: domain, type: "TXT" },
      dmarc: { name: `_dmarc.${domain}`, type: "TXT" },
      whois: { domain },
      tls: { host: domain },
      headers: { url },
      tech: { url },
      http: { url, method: "GET" },
      phishing: { url: domain },
    };
  },
  digest: v.object({
    addresses: v.pipe(v.array(v.string()), v.description("A and AAAA records")),
    mailServers: v.pipe(v.array(v.string()), v.description("MX records, preference first")),
    emailAuth: v.pipe(
      v.object({ spf: v.boolean(), dmarc: v.boolean() }),
      v.description("An SPF TXT record and a DMARC record were found"),
    ),
    registrar: v.nullable(v.string()),
    domainAgeDays: figure("Days since registration (RDAP)"),
    expires: v.pipe(v.nullable(v.string()), v.description("Registration expiry, ISO 8601")),
    tlsTrusted: v.pipe(v.nullable(v.boolean()), v.description("Certificate chain trusted and matching the name")),
    tlsDaysRemaining: figure("Days until the leaf certificate expires"),
    headersGrade: v.pipe(v.nullable(v.string()), v.description("Security headers grade, A+ to F")),
    technologies: v.pipe(v.array(v.string()), v.description("Detected technologies")),
    phishingVerdict: v.pipe(
      v.nullable(v.string()),
      v.description("phishing, look-alike, allowed or not-listed (MetaMask's lists)"),
    ),
    reachable: v.pipe(v.nullable(v.boolean()), v.description("https://<domain>/ answered with a 2xx or 3xx")),
  }),
  summarize(data) {
    const whois = data.whois as WhoisData | undefined;
    const cert = data.tls as CertData | undefined;
    const http = data.http as { ok?: boolean } | undefined;
    return {
      addresses: [...records(data.a), ...records(data.aaaa)],
      mailServers: records(data.mx),
      emailAuth: {
        spf: records(data.txt).some((t) => t.toLowerCase().startsWith("v=spf1")),
        dmarc: records(data.dmarc).some((t) => t.toLowerCase().startsWith("v=dmarc1")),
      },
      registrar: whois?.registrar?.name ?? null,
      domainAgeDays: whois?.ageDays ?? null,
      expires: whois?.expires ?? null,
      tlsTrusted: cert ? Boolean(cert.trusted && cert.hostnameMatch) : null,
      tlsDaysRemaining: certDaysLeft(cert) ?? null,
      headersGrade: (data.headers as { grade?: string } | undefined)?.grade ?? null,
      technologies: ((data.tech as { technologies?: { name: string }[] } | undefined)?.technologies ?? []).map(
        (t) => t.name,
      ),
      phishingVerdict: (data.phishing as { verdict?: string } | undefined)?.verdict ?? null,
      reachable: http ? http.ok === true : null,
    };
  },
  example: examples["domain-intel"],
});
