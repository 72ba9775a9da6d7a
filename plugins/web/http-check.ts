import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { mediaType } from "../_shared/page-fetch.ts";
import { elapsedSince, timedFetch } from "../_shared/target.ts";

export default defineEndpoint({
  name: "http-check",
  method: "GET",
  price: "$0.005",
  mcp: true,
  probes: true,
  summary: "Request a URL and report status, redirects, timings, headers and size",
  description:
    "One request through the egress guard (public addresses only, ports 80 and 443, at most 5 redirects, 5 MB). " +
    "Any HTTP status is an answer; a target that cannot be reached is a 502. `resolveMs` is the time to resolve and " +
    "check the host, `totalMs` the whole exchange including every redirect and the body.",
  input: v.object({
    url: urlInput("URL to request"),
    method: v.optional(v.pipe(v.picklist(["GET", "HEAD", "OPTIONS"]), v.description("HTTP method")), "GET"),
  }),
  output: v.object({
    url: v.string(),
    finalUrl: v.string(),
    status: v.number(),
    ok: v.pipe(v.boolean(), v.description("The final status is 2xx")),
    redirects: v.array(v.string()),
    timings: v.object({ resolveMs: v.number(), totalMs: v.number() }),
    headers: v.record(v.string(), v.string()),
    contentType: v.nullable(v.string()),
    bytes: v.number(),
    address: v.pipe(v.string(), v.description("The address the final request went to")),
  }),
  example: {
    input: { url: "http://example.com/", method: "GET" },
    output: {
      url: "http://example.com/",
      finalUrl: "https://example.com/",
      status: 200,
      ok: true,
      redirects: ["https://example.com/"],
      timings: { resolveMs: 3.2, totalMs: 182.4 },
      headers: { "content-type": "text/html", "content-length": "1256", "cache-control": "max-age=3355" },
      contentType: "text/html",
      bytes: 1256,
      address: "93.184.215.14",
    },
  },
  async handler({ input, egress }) {
    const started = performance.now();
    await egress.check(input.url);
    const resolveMs = elapsedSince(started);
    const { response, ms } = await timedFetch(egress, input.url, { method: input.method });
    return {
      url: input.url,
      finalUrl: response.url,
      status: response.status,
      ok: response.status >= 200 && response.status < 300,
      redirects: response.redirects,
      timings: { resolveMs, totalMs: ms },
      headers: response.headers,
      contentType: mediaType(response.headers["content-type"]) ?? null,
      bytes: response.body.length,
      address: response.address,
    };
  },
});
