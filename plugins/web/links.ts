import * as v from "valibot";
import { defineEndpoint, type Egress } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { mediaType } from "../_shared/page-fetch.ts";
import { elapsedSince } from "../_shared/target.ts";

/** At most this many requests to one host at a time, so a list of links does not hammer a single site. */
const perHost = 4;

const result = v.object({
  url: v.string(),
  ok: v.pipe(v.boolean(), v.description("The link answers 2xx after redirects")),
  status: v.nullable(v.number()),
  finalUrl: v.nullable(v.string()),
  redirects: v.number(),
  latencyMs: v.number(),
  contentType: v.nullable(v.string()),
  error: v.nullable(v.string()),
});
type LinkResult = v.InferOutput<typeof result>;

export default defineEndpoint({
  name: "links",
  method: "GET",
  price: "$0.01",
  probes: true,
  summary: "Check up to 20 links at once: status, final URL, redirects and latency of each",
  description:
    "Every URL goes through the egress guard; one that points at a private, loopback or metadata address makes the " +
    "whole call a 400 before anything is requested. The rest are checked concurrently (at most 4 at a time per host) " +
    "with HEAD, falling back to GET when HEAD is refused (405/501). A link that does not resolve, times out or hangs up " +
    "is reported as broken with its error. In a query string, repeat `urls=` or separate URLs with commas.",
  input: v.object({
    urls: v.pipe(v.array(urlInput("A link to check")), v.minLength(1), v.maxLength(20), v.description("1 to 20 URLs")),
  }),
  output: v.object({
    total: v.number(),
    ok: v.number(),
    broken: v.number(),
    results: v.array(result),
  }),
  example: {
    input: { urls: ["https://example.com/", "https://example.com/missing"] },
    output: {
      total: 2,
      ok: 1,
      broken: 1,
      results: [
        {
          url: "https://example.com/",
          ok: true,
          status: 200,
          finalUrl: "https://example.com/",
          redirects: 0,
          latencyMs: 121.4,
          contentType: "text/html",
          error: null,
        },
        {
          url: "https://example.com/missing",
          ok: false,
          status: 404,
          finalUrl: "https://example.com/missing",
          redirects: 0,
          latencyMs: 98.2,
          contentType: "text/html",
          error: null,
        },
      ],
    },
  },
  timeoutMs: 45_000,
  async handler({ input, egress }) {
    const unresolved = new Map<string, string>();
    await Promise.all(
      input.urls.map((url) =>
        egress.check(url).catch((error) => {
          if (isRefusal(error)) throw error;
          unresolved.set(url, error instanceof ServiceError ? error.message : "could not resolve the host");
        }),
      ),
    );
    const results = await byHost(input.urls, (url) => {
      const reason = unresolved.get(url);
      return reason ? Promise.resolve(failed(url, 0, reason)) : checkLink(egress, url);
    });
    const ok = results.filter((r) => r.ok).length;
    return { total: results.length, ok, broken: results.length - ok, results };
  },
});

/** The guard's 400s refuse the call, except "does not resolve", which is a broken link to report. */
function isRefusal(error: unknown): boolean {
  return error instanceof ServiceError && error.status === 400 && !/does not resolve/.test(error.message);
}

async function checkLink(egress: Egress, url: string): Promise<LinkResult> {
  const started = performance.now();
  try {
    let response = await egress.fetch(url, { method: "HEAD" });
    if (response.status === 405 || response.status === 501) response = await egress.fetch(url);
    return {
      url,
      ok: response.status >= 200 && response.status < 300,
      status: response.status,
      finalUrl: response.url,
      redirects: response.redirects.length,
      latencyMs: elapsedSince(started),
      contentType: mediaType(response.headers["content-type"]) ?? null,
      error: null,
    };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return failed(url, elapsedSince(started), error.message);
  }
}

function failed(url: string, latencyMs: number, error: string): LinkResult {
  return { url, ok: false, status: null, finalUrl: null, redirects: 0, latencyMs, contentType: null, error };
}

/** Runs `work` for every URL, all hosts in parallel, at most `perHost` at once per host; results keep input order. */
async function byHost<T>(urls: string[], work: (url: string) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(urls.length);
  const queues = new Map<string, number[]>();
  urls.forEach((url, i) => {
    const host = new URL(url).host;
    queues.set(host, [...(queues.get(host) ?? []), i]);
  });
  const lane = async (queue: number[]) => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) results[i] = await work(urls[i]);
  };
  await Promise.all(
    [...queues.values()].flatMap((queue) => Array.from({ length: Math.min(perHost, queue.length) }, () => lane(queue))),
  );
  return results;
}
