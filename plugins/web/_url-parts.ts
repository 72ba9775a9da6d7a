import net from "node:net";
import { domainToUnicode } from "node:url";
import { publicSuffixList } from "../_shared/public-suffix.ts";

/** The URL's parts and its host against the Public Suffix List; no network. */
export function describeUrl(raw: string) {
  const url = new URL(raw);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const psl = publicSuffixList().parse(url.href, { allowPrivateDomains: true });
  const ipVersion = net.isIP(hostname);
  return {
    url: url.href,
    scheme: url.protocol.replace(/:$/, ""),
    hostname,
    unicodeHostname: ipVersion ? hostname : domainToUnicode(hostname) || hostname,
    port: url.port ? Number(url.port) : null,
    path: url.pathname,
    query: [...url.searchParams].map(([name, value]) => ({ name, value })),
    fragment: url.hash ? url.hash.slice(1) : null,
    registrableDomain: psl.domain,
    publicSuffix: psl.publicSuffix,
    subdomain: psl.subdomain || null,
    isIp: ipVersion !== 0,
    ipVersion: ipVersion === 4 || ipVersion === 6 ? (ipVersion as 4 | 6) : null,
    isIcannSuffix: psl.isIcann,
    isPrivateSuffix: psl.isPrivate,
  };
}
