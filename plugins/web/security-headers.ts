import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { checkCookies, checkHeaders, gradeOf, scoreOf } from "./_security-grade.ts";

const grades = ["A+", "A", "B", "C", "D", "F"] as const;

export default defineEndpoint({
  name: "security-headers",
  method: "GET",
  price: "$0.01",
  probes: true,
  summary:
    "Grade a page's HTTP security headers (HSTS, CSP, framing, nosniff, referrer, permissions, COOP/CORP) with advice",
  description:
    "GETs the URL through the egress guard, follows redirects and grades the final response. Weights out of 100: " +
    "HSTS 25 (HTTPS only), CSP 25, X-Frame-Options or CSP frame-ancestors 15, X-Content-Type-Options 10, " +
    "Referrer-Policy 10, Permissions-Policy 5, COOP 5, CORP 5; a weak value earns half. Version-revealing Server or " +
    "X-Powered-By headers and cookies without Secure or HttpOnly cost 5 each (20 at most). A+ >= 95, A >= 85, " +
    "B >= 70, C >= 55, D >= 40, else F. A target that cannot be reached is a 502.",
  input: v.object({ url: urlInput("Page to grade") }),
  output: v.object({
    url: v.string(),
    finalUrl: v.string(),
    status: v.number(),
    https: v.boolean(),
    httpsRedirect: v.nullable(
      v.pipe(v.boolean(), v.description("An http:// URL ended on https:// (null when the URL was https already)")),
    ),
    grade: v.picklist(grades),
    score: v.number(),
    headers: v.array(
      v.object({
        name: v.string(),
        present: v.boolean(),
        value: v.nullable(v.string()),
        rating: v.picklist(["good", "weak", "missing", "leak"]),
        advice: v.nullable(v.string()),
      }),
    ),
    cookies: v.array(
      v.object({ name: v.string(), secure: v.boolean(), httpOnly: v.boolean(), sameSite: v.nullable(v.string()) }),
    ),
  }),
  example: {
    input: { url: "https://example.com/" },
    output: {
      url: "https://example.com/",
      finalUrl: "https://example.com/",
      status: 200,
      https: true,
      httpsRedirect: null,
      grade: "D",
      score: 40,
      headers: [
        { name: "strict-transport-security", present: true, value: "max-age=31536000", rating: "good", advice: null },
        {
          name: "content-security-policy",
          present: false,
          value: null,
          rating: "missing",
          advice: "Add a Content-Security-Policy, starting with default-src 'self' and object-src 'none'.",
        },
        { name: "x-frame-options", present: true, value: "SAMEORIGIN", rating: "good", advice: null },
        {
          name: "x-content-type-options",
          present: false,
          value: null,
          rating: "missing",
          advice: "Send X-Content-Type-Options: nosniff.",
        },
        {
          name: "referrer-policy",
          present: false,
          value: null,
          rating: "missing",
          advice: "Send Referrer-Policy: strict-origin-when-cross-origin (or stricter).",
        },
        { name: "permissions-policy", present: true, value: "camera=()", rating: "good", advice: null },
        {
          name: "cross-origin-opener-policy",
          present: false,
          value: null,
          rating: "missing",
          advice: "Send Cross-Origin-Opener-Policy: same-origin to isolate the browsing context.",
        },
        {
          name: "cross-origin-resource-policy",
          present: false,
          value: null,
          rating: "missing",
          advice: "Send Cross-Origin-Resource-Policy: same-origin (or same-site).",
        },
        {
          name: "server",
          present: true,
          value: "ECAcc (nyd/D184)",
          rating: "leak",
          advice: "Remove version details from server.",
        },
        { name: "x-powered-by", present: false, value: null, rating: "good", advice: null },
        { name: "x-aspnet-version", present: false, value: null, rating: "good", advice: null },
      ],
      cookies: [],
    },
  },
  cacheTtl: 600,
  async handler({ input, egress }) {
    const response = await egress.fetch(input.url);
    const https = response.url.startsWith("https://");
    const checks = checkHeaders(response.headers, https);
    const cookies = checkCookies(response.headers["set-cookie"]);
    const score = scoreOf(checks, cookies);
    return {
      url: input.url,
      finalUrl: response.url,
      status: response.status,
      https,
      httpsRedirect: input.url.toLowerCase().startsWith("http://") ? https : null,
      grade: gradeOf(score),
      score,
      headers: checks.map(({ name, present, value, rating, advice }) => ({ name, present, value, rating, advice })),
      cookies,
    };
  },
});
