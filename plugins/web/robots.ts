import * as v from "valibot";
import robotsParserModule from "robots-parser";
import { defineEndpoint } from "../../core/endpoint.ts";
import { urlInput } from "../_shared/web-inputs.ts";

/** The package is CommonJS (`module.exports = fn`) but its types declare an ES default export. */
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** RFC 9309 section 2.5: crawlers must parse at least 500 KiB; the rest is ignored. */
const parseLimit = 500 * 1024;

export default defineEndpoint({
  name: "robots",
  method: "GET",
  price: "$0.005",
  probes: true,
  summary: "Read a site's robots.txt: is a path allowed for a user agent, crawl delay and sitemaps",
  description:
    "Fetches {origin}/robots.txt through the egress guard (redirects followed) and applies RFC 9309: a 4xx answer " +
    "means everything is allowed, a 5xx means everything is disallowed. The first 500 KiB are parsed (robots-parser). " +
    "A site that cannot be reached is a 502.",
  input: v.object({
    url: urlInput("Any URL on the site; its path is the one checked unless `path` is given"),
    userAgent: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Crawler user agent to check for")),
      "*",
    ),
    path: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\//, "must start with /"),
        v.maxLength(2048),
        v.description("Path (and query) to check, e.g. /private/page"),
      ),
    ),
  }),
  output: v.object({
    robotsUrl: v.string(),
    fetchStatus: v.number(),
    policy: v.pipe(
      v.picklist(["file", "allow-all", "disallow-all"]),
      v.description("file: rules were read; allow-all: 4xx; disallow-all: 5xx"),
    ),
    userAgent: v.string(),
    path: v.string(),
    allowed: v.boolean(),
    matchedLine: v.nullable(v.pipe(v.number(), v.description("1-based line of the rule that decided, if any"))),
    rule: v.nullable(v.string()),
    crawlDelay: v.nullable(v.number()),
    sitemaps: v.array(v.string()),
    bytes: v.number(),
  }),
  example: {
    input: { url: "https://www.example.org/private/report.html", userAgent: "GPTBot" },
    output: {
      robotsUrl: "https://www.example.org/robots.txt",
      fetchStatus: 200,
      policy: "file",
      userAgent: "GPTBot",
      path: "/private/report.html",
      allowed: false,
      matchedLine: 2,
      rule: "Disallow: /",
      crawlDelay: null,
      sitemaps: ["https://www.example.org/sitemap.xml"],
      bytes: 96,
    },
  },
  cacheTtl: 900,
  async handler({ input, egress }) {
    const target = new URL(input.url);
    const robotsUrl = `${target.origin}/robots.txt`;
    const path = input.path ?? `${target.pathname}${target.search}`;
    const response = await egress.fetch(robotsUrl, { headers: { accept: "text/plain" } });
    const base = {
      robotsUrl,
      fetchStatus: response.status,
      userAgent: input.userAgent,
      path,
      bytes: response.body.length,
    };
    if (response.status >= 400) {
      const allowed = response.status < 500;
      return {
        ...base,
        policy: allowed ? ("allow-all" as const) : ("disallow-all" as const),
        allowed,
        matchedLine: null,
        rule: null,
        crawlDelay: null,
        sitemaps: [],
      };
    }
    const text = response.body.subarray(0, parseLimit).toString("utf8");
    const robots = robotsParser(robotsUrl, text);
    const checked = `${target.origin}${path}`;
    const line = robots.getMatchingLineNumber(checked, input.userAgent);
    return {
      ...base,
      policy: "file" as const,
      allowed: robots.isAllowed(checked, input.userAgent) ?? true,
      matchedLine: line > 0 ? line : null,
      rule: line > 0 ? (text.split(/\r\n|\r|\n/)[line - 1]?.trim() ?? null) : null,
      crawlDelay: robots.getCrawlDelay(input.userAgent) ?? null,
      sitemaps: robots.getSitemaps(),
    };
  },
});
