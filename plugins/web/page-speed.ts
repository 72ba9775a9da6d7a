import { performance } from "node:perf_hooks";
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from "node:zlib";
import * as v from "valibot";
import { defineEndpoint, type Egress } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";
import { decodeBody, fetchTarget, htmlAccept, mediaType } from "../_shared/page-fetch.ts";
import { runLighthouse } from "./_pagespeed-insights.ts";
import { countResources, isCacheable, scoreSpeed } from "./_speed-score.ts";

const maxDecodedBytes = 20 * 1024 * 1024;
const Score = v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(100)));
const Ms = v.nullable(v.number());

export default defineEndpoint({
  name: "page-speed",
  method: "GET",
  price: "$0.02",
  probes: true,
  summary: "Time a page from our own fetch and score it, listing every factor; optionally add Google Lighthouse scores",
  description:
    "We fetch the page once (GET, asking for gzip/deflate/br) and time it from DNS to the last byte, then send a HEAD to the final URL and " +
    "time its headers as the time to first byte. Resource counts come from the HTML (no sub-resource is fetched). The score adds seven " +
    "factors listed in `factors`. With lighthouse=true the URL is also run through Google PageSpeed Insights (set UPSTREAM_PAGESPEED_INSIGHTS_KEY " +
    "for volume; keyless calls are throttled; a run takes 10-30 s, so UPSTREAM_TIMEOUT_MS should allow it).",
  input: v.object({
    url: v.pipe(v.string(), v.url(), v.maxLength(2048), v.description("Page to time (http or https)")),
    lighthouse: v.optional(v.pipe(v.boolean(), v.description("Also run Google PageSpeed Insights (slow)")), false),
    strategy: v.optional(
      v.pipe(v.picklist(["mobile", "desktop"]), v.description("PageSpeed Insights device profile")),
      "mobile",
    ),
  }),
  output: v.object({
    url: v.pipe(v.string(), v.description("Final URL after redirects")),
    status: v.number(),
    timings: v.object({
      ttfbMs: v.pipe(
        Ms,
        v.description("HEAD request to the final URL until its headers arrived; null when HEAD fails"),
      ),
      totalMs: v.pipe(v.number(), v.description("GET from DNS to the last byte, redirects included")),
    }),
    bytes: v.object({
      transferred: v.pipe(v.number(), v.description("Body bytes on the wire")),
      html: v.pipe(v.number(), v.description("Body bytes after decompression")),
    }),
    compression: v.pipe(v.nullable(v.string()), v.description("Content-Encoding, null when uncompressed")),
    caching: v.object({
      cacheControl: v.nullable(v.string()),
      etag: v.nullable(v.string()),
      lastModified: v.nullable(v.string()),
      expires: v.nullable(v.string()),
      cacheable: v.boolean(),
    }),
    redirects: v.number(),
    resources: v.object({
      scripts: v.number(),
      inlineScripts: v.number(),
      stylesheets: v.number(),
      images: v.number(),
      iframes: v.number(),
      fonts: v.number(),
      total: v.number(),
    }),
    score: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
    factors: v.array(
      v.object({
        name: v.string(),
        passed: v.boolean(),
        points: v.number(),
        maxPoints: v.number(),
        detail: v.string(),
      }),
    ),
    lighthouse: v.nullable(
      v.object({
        strategy: v.picklist(["mobile", "desktop"]),
        performance: Score,
        accessibility: Score,
        bestPractices: Score,
        seo: Score,
        metrics: v.object({ fcpMs: Ms, lcpMs: Ms, tbtMs: Ms, cls: Ms, speedIndexMs: Ms }),
      }),
    ),
  }),
  example: {
    input: { url: "https://example.com/", lighthouse: false, strategy: "mobile" },
    output: {
      url: "https://example.com/",
      status: 200,
      timings: { ttfbMs: 92, totalMs: 118 },
      bytes: { transferred: 363, html: 528 },
      compression: "gzip",
      caching: { cacheControl: "max-age=86400", etag: null, lastModified: null, expires: null, cacheable: true },
      redirects: 0,
      resources: { scripts: 0, inlineScripts: 0, stylesheets: 0, images: 0, iframes: 0, fonts: 0, total: 0 },
      score: 100,
      factors: [
        {
          name: "server response time",
          passed: true,
          points: 20,
          maxPoints: 20,
          detail: "92 ms to the first byte (full points at 200 or less, half at 600 or less)",
        },
        {
          name: "HTML download time",
          passed: true,
          points: 15,
          maxPoints: 15,
          detail: "118 ms for the whole HTML (full points at 500 or less, half at 1500 or less)",
        },
        {
          name: "HTML size",
          passed: true,
          points: 15,
          maxPoints: 15,
          detail: "0 KiB transferred (full points at 100 or less, half at 500 or less)",
        },
        { name: "compression", passed: true, points: 15, maxPoints: 15, detail: "sent with gzip" },
        {
          name: "caching headers",
          passed: true,
          points: 10,
          maxPoints: 10,
          detail: "cache lifetime or validator present",
        },
        {
          name: "redirects",
          passed: true,
          points: 10,
          maxPoints: 10,
          detail: "0 redirects before the page (full points at 0 or less, half at 1 or less)",
        },
        {
          name: "requests from the HTML",
          passed: true,
          points: 15,
          maxPoints: 15,
          detail: "0 files referenced (full points at 30 or less, half at 60 or less)",
        },
      ],
      lighthouse: null,
    },
  },
  cacheTtl: 600,
  timeoutMs: 60_000,
  upstreams: ["pagespeed-insights"],
  async handler({ input, egress, upstream }) {
    const started = performance.now();
    const res = await fetchTarget(egress, input.url, { accept: htmlAccept, "accept-encoding": "gzip, deflate, br" });
    const totalMs = Math.round(performance.now() - started);
    const ttfbMs = await timeHead(egress, res.url);
    const encoding = res.headers["content-encoding"]?.trim().toLowerCase() || null;
    const body = decompress(res.body, encoding);
    const type = mediaType(res.headers["content-type"]);
    const html = !type || type.includes("html") ? decodeBody(body, res.headers["content-type"]) : "";
    const resources = countResources(html);
    const cacheable = isCacheable(res.headers);
    const compression = encoding && encoding !== "identity" ? encoding : null;
    const facts = {
      ttfbMs,
      totalMs,
      transferredBytes: res.body.length,
      htmlBytes: body.length,
      compression,
      cacheable,
      redirects: res.redirects.length,
      resources,
    };
    const lighthouse = input.lighthouse
      ? await runLighthouse(upstream("pagespeed-insights"), input.url, input.strategy)
      : null;
    return {
      url: res.url,
      status: res.status,
      timings: { ttfbMs, totalMs },
      bytes: { transferred: res.body.length, html: body.length },
      compression,
      caching: {
        cacheControl: res.headers["cache-control"] ?? null,
        etag: res.headers.etag ?? null,
        lastModified: res.headers["last-modified"] ?? null,
        expires: res.headers.expires ?? null,
        cacheable,
      },
      redirects: res.redirects.length,
      resources,
      ...scoreSpeed(facts),
      lighthouse,
    };
  },
});

/** Time until a HEAD's headers arrive: the server's time to first byte, connection set-up included. */
async function timeHead(egress: Egress, url: string): Promise<number | null> {
  const started = performance.now();
  try {
    const res = await egress.fetch(url, { method: "HEAD" });
    return res.status < 400 ? Math.round(performance.now() - started) : null;
  } catch {
    return null;
  }
}

function decompress(body: Buffer, encoding: string | null): Buffer {
  const options = { maxOutputLength: maxDecodedBytes };
  try {
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(body, options);
    if (encoding === "br") return brotliDecompressSync(body, options);
    if (encoding === "deflate") {
      try {
        return inflateSync(body, options);
      } catch {
        return inflateRawSync(body, options);
      }
    }
  } catch {
    throw new ServiceError(
      502,
      "target_error",
      `the target's ${encoding} body does not decode (or decodes past ${maxDecodedBytes} bytes)`,
    );
  }
  return body;
}
