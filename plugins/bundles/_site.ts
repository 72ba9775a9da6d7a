import * as v from "valibot";

export const UrlInput = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.url("an absolute http(s) URL"),
  v.regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\//, "an http(s) URL"),
  v.description("The page or site, an absolute http(s) URL"),
);

/** Host and port a TLS probe of the URL needs (null for plain http, which has no certificate). */
export function tlsTarget(url: string): { host: string; port: number } | null {
  const u = new URL(url);
  if (u.protocol !== "https:") return null;
  return { host: u.hostname.replace(/^\[|\]$/g, ""), port: u.port ? Number(u.port) : 443 };
}

export interface CertData {
  chain?: { daysRemaining: number }[];
  trusted?: boolean;
  hostnameMatch?: boolean;
}
export const certDaysLeft = (data: unknown) => (data as CertData | undefined)?.chain?.[0]?.daysRemaining;
