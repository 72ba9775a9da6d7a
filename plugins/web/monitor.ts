import { createHash } from "node:crypto";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { decodeBody } from "../_shared/page-fetch.ts";
import { timedFetch } from "../_shared/target.ts";

export default defineEndpoint({
  name: "monitor",
  method: "GET",
  price: "$0.01",
  probes: true,
  summary: "One uptime probe of a URL: status against the expected one, latency, and whether a keyword is on the page",
  description:
    "GETs the URL once through the egress guard (redirects followed) from the service's own region; never cached. " +
    "`up` is true when the status matches `expectedStatus` (any 2xx or 3xx when not given) and, if a keyword is given, " +
    "the body contains it. A target that cannot be reached at all is a 502 and is not charged. For a repeating check " +
    "see /v1/watch.",
  input: v.object({
    url: urlInput("URL to probe"),
    expectedStatus: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(599), v.description("Status the URL should answer")),
    ),
    keyword: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Text the body should contain")),
    ),
    caseSensitive: v.optional(v.pipe(v.boolean(), v.description("Match the keyword's case exactly")), false),
  }),
  output: v.object({
    url: v.string(),
    finalUrl: v.string(),
    up: v.boolean(),
    status: v.number(),
    expectedStatus: v.nullable(v.number()),
    statusMatches: v.boolean(),
    keyword: v.nullable(v.string()),
    keywordFound: v.nullable(v.boolean()),
    latencyMs: v.number(),
    bytes: v.number(),
    contentHash: v.pipe(v.string(), v.description("SHA-256 of the body, hex, to notice changes between probes")),
    checkedAt: v.string(),
  }),
  example: {
    input: { url: "https://example.com/", expectedStatus: 200, keyword: "Example Domain" },
    output: {
      url: "https://example.com/",
      finalUrl: "https://example.com/",
      up: true,
      status: 200,
      expectedStatus: 200,
      statusMatches: true,
      keyword: "Example Domain",
      keywordFound: true,
      latencyMs: 143.7,
      bytes: 1256,
      contentHash: "ea8fac7c65fb589b0d53560f5251f74f9e9b243478dcb6b3ea79b5e36449c8d9",
      checkedAt: "2026-11-21T10:00:00.000Z",
    },
  },
  async handler({ input, egress, now }) {
    const { response, ms } = await timedFetch(egress, input.url);
    const statusMatches =
      input.expectedStatus !== undefined
        ? response.status === input.expectedStatus
        : response.status >= 200 && response.status < 400;
    const keywordFound =
      input.keyword === undefined
        ? null
        : contains(decodeBody(response.body, response.headers["content-type"]), input.keyword, input.caseSensitive);
    return {
      url: input.url,
      finalUrl: response.url,
      up: statusMatches && keywordFound !== false,
      status: response.status,
      expectedStatus: input.expectedStatus ?? null,
      statusMatches,
      keyword: input.keyword ?? null,
      keywordFound,
      latencyMs: ms,
      bytes: response.body.length,
      contentHash: createHash("sha256").update(response.body).digest("hex"),
      checkedAt: now().toISOString(),
    };
  },
});

function contains(body: string, keyword: string, caseSensitive: boolean): boolean {
  return caseSensitive ? body.includes(keyword) : body.toLocaleLowerCase().includes(keyword.toLocaleLowerCase());
}
