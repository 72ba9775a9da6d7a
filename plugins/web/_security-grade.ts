export type Rating = "good" | "weak" | "missing" | "leak";

export interface HeaderCheck {
  name: string;
  present: boolean;
  value: string | null;
  rating: Rating;
  advice: string | null;
  /** Points this header earns out of `weight`. */
  points: number;
  weight: number;
}

type Judge = (
  value: string,
  ctx: { https: boolean; headers: Record<string, string> },
) => { rating: "good" | "weak"; advice?: string };

interface Rule {
  name: string;
  weight: number;
  missingAdvice: string;
  judge: Judge;
  /** Another header that does this one's job (CSP frame-ancestors for X-Frame-Options). */
  coveredBy?: (headers: Record<string, string>) => boolean;
}

const sixMonths = 15_552_000;

const rules: Rule[] = [
  {
    name: "strict-transport-security",
    weight: 25,
    missingAdvice: "Send Strict-Transport-Security: max-age=31536000; includeSubDomains over HTTPS.",
    judge: (value) => {
      const maxAge = Number(/max-age\s*=\s*"?(\d+)/i.exec(value)?.[1] ?? 0);
      return maxAge >= sixMonths
        ? { rating: "good" }
        : { rating: "weak", advice: "Raise max-age to at least 15552000 (180 days)." };
    },
  },
  {
    name: "content-security-policy",
    weight: 25,
    missingAdvice: "Add a Content-Security-Policy, starting with default-src 'self' and object-src 'none'.",
    judge: (value) => {
      const scripts = directive(value, "script-src") ?? directive(value, "default-src") ?? "";
      if (/'unsafe-inline'/.test(scripts) && !/'nonce-|'sha(256|384|512)-|'strict-dynamic'/.test(scripts))
        return { rating: "weak", advice: "Drop 'unsafe-inline' for scripts; use nonces or hashes." };
      if (/'unsafe-eval'/.test(scripts)) return { rating: "weak", advice: "Drop 'unsafe-eval' from script sources." };
      if (/(^|\s)(\*|https?:|data:)(\s|$)/.test(scripts))
        return { rating: "weak", advice: "Do not allow scripts from any host or scheme." };
      if (!directive(value, "script-src") && !directive(value, "default-src"))
        return { rating: "weak", advice: "Restrict script sources with default-src or script-src." };
      return { rating: "good" };
    },
  },
  {
    name: "x-frame-options",
    weight: 15,
    missingAdvice: "Send X-Frame-Options: DENY (or CSP frame-ancestors 'none') against clickjacking.",
    coveredBy: (headers) => directive(headers["content-security-policy"] ?? "", "frame-ancestors") !== undefined,
    judge: (value) =>
      /^\s*(deny|sameorigin)\s*$/i.test(value)
        ? { rating: "good" }
        : { rating: "weak", advice: "Use DENY or SAMEORIGIN; ALLOW-FROM is obsolete, use CSP frame-ancestors." },
  },
  {
    name: "x-content-type-options",
    weight: 10,
    missingAdvice: "Send X-Content-Type-Options: nosniff.",
    judge: (value) =>
      /^\s*nosniff\s*$/i.test(value)
        ? { rating: "good" }
        : { rating: "weak", advice: "The only valid value is nosniff." },
  },
  {
    name: "referrer-policy",
    weight: 10,
    missingAdvice: "Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).",
    judge: (value) =>
      /unsafe-url|no-referrer-when-downgrade/i.test(value)
        ? { rating: "weak", advice: "This policy leaks full URLs to other sites; use strict-origin-when-cross-origin." }
        : { rating: "good" },
  },
  {
    name: "permissions-policy",
    weight: 5,
    missingAdvice:
      "Send a Permissions-Policy that turns off features the site does not use (camera=(), microphone=(), geolocation=()).",
    judge: () => ({ rating: "good" }),
  },
  {
    name: "cross-origin-opener-policy",
    weight: 5,
    missingAdvice: "Send Cross-Origin-Opener-Policy: same-origin to isolate the browsing context.",
    judge: (value) =>
      /unsafe-none/i.test(value)
        ? { rating: "weak", advice: "unsafe-none is the default; use same-origin." }
        : { rating: "good" },
  },
  {
    name: "cross-origin-resource-policy",
    weight: 5,
    missingAdvice: "Send Cross-Origin-Resource-Policy: same-origin (or same-site).",
    judge: (value) =>
      /cross-origin/i.test(value)
        ? { rating: "weak", advice: "cross-origin lets any site embed these resources." }
        : { rating: "good" },
  },
];

function directive(policy: string, name: string): string | undefined {
  const found = policy
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.toLowerCase().split(/\s+/)[0] === name);
  return found === undefined ? undefined : found.slice(name.length).trim();
}

/** Every security header rated, plus the headers that give away software versions. */
export function checkHeaders(headers: Record<string, string>, https: boolean): HeaderCheck[] {
  const checks = rules.map((rule): HeaderCheck => {
    const value = headers[rule.name] ?? null;
    if (rule.name === "strict-transport-security" && !https) {
      return {
        name: rule.name,
        present: value !== null,
        value,
        rating: "missing",
        advice: "Serve the site over HTTPS; HSTS only counts there.",
        points: 0,
        weight: rule.weight,
      };
    }
    if (value === null) {
      const covered = rule.coveredBy?.(headers) ?? false;
      return {
        name: rule.name,
        present: false,
        value,
        rating: covered ? "good" : "missing",
        advice: covered ? null : rule.missingAdvice,
        points: covered ? rule.weight : 0,
        weight: rule.weight,
      };
    }
    const verdict = rule.judge(value, { https, headers });
    const points = verdict.rating === "good" ? rule.weight : Math.floor(rule.weight / 2);
    return {
      name: rule.name,
      present: true,
      value,
      rating: verdict.rating,
      advice: verdict.advice ?? null,
      points,
      weight: rule.weight,
    };
  });
  for (const name of ["server", "x-powered-by", "x-aspnet-version"]) {
    const value = headers[name] ?? null;
    const leaks = value !== null && (name !== "server" || /\d/.test(value));
    checks.push({
      name,
      present: value !== null,
      value,
      rating: leaks ? "leak" : "good",
      advice: leaks ? `Remove version details from ${name}.` : null,
      points: 0,
      weight: 0,
    });
  }
  return checks;
}

export interface CookieCheck {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: string | null;
}

/** Set-Cookie headers arrive joined with ", "; split only where a new name=value starts. */
export function checkCookies(setCookie: string | undefined): CookieCheck[] {
  if (!setCookie) return [];
  return setCookie.split(/,\s*(?=[^;,=\s]+=)/).map((cookie) => {
    const [pair, ...attributes] = cookie.split(";").map((part) => part.trim());
    const has = (name: string) => attributes.some((a) => a.toLowerCase().split("=")[0] === name);
    const sameSite = attributes.find((a) => a.toLowerCase().startsWith("samesite="))?.split("=")[1] ?? null;
    return { name: pair.split("=")[0], secure: has("secure"), httpOnly: has("httponly"), sameSite };
  });
}

/** Score out of 100: the headers' points, less 5 per leak and per cookie without Secure or HttpOnly (up to 20). */
export function scoreOf(checks: HeaderCheck[], cookies: CookieCheck[]): number {
  const earned = checks.reduce((sum, c) => sum + c.points, 0);
  const penalties =
    checks.filter((c) => c.rating === "leak").length * 5 + cookies.filter((c) => !c.secure || !c.httpOnly).length * 5;
  return Math.max(0, earned - Math.min(20, penalties));
}

export function gradeOf(score: number): "A+" | "A" | "B" | "C" | "D" | "F" {
  if (score >= 95) return "A+";
  if (score >= 85) return "A";
  if (score >= 70) return "B";
  if (score >= 55) return "C";
  if (score >= 40) return "D";
  return "F";
}
