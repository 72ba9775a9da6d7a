import assert from "node:assert/strict";
import { upstreams } from "../../../core/runtime/upstreams.ts";
import type { Outcome } from "../../../core/runtime/invoke.ts";
import { serveFixtures, type AfterHost, type Fixture, type FixtureOptions } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";

export const dir = new URL("./fixtures/", import.meta.url);

/**
 * One fixture server for every upstream (market uses its own and arcade's alternative-me), each under its own name: `/okx/public/funding-rate`
 * is OKX's `/api/v5/public/funding-rate`. Returns the server (its calls) and a service pointed at it.
 */
export async function marketService(t: AfterHost, fixtures: (string | Fixture)[], options: FixtureOptions = {}) {
  const api = await serveFixtures(t, fixtures, { dir, ...options });
  const env = Object.fromEntries(Object.keys(upstreams).map((name) => [`UPSTREAM_${name.toUpperCase().replace(/-/g, "_")}_URL`, `${api.url}/${name}`]));
  const service = await startTestService({ plugins: ["market"], env });
  return { api, service };
}

/** A fixture that fails the way a venue refuses or breaks, answered as often as it is asked (retries). */
export const failing = (path: string, status: number, source: string, method = "GET"): Fixture => ({
  source,
  request: { method, path },
  response: { status, body: status === 451 ? { code: 0, msg: "Service unavailable from a restricted location according to 'b. Eligibility' in https://www.binance.com/en/terms. Please contact customer service if you believe you received this message in error." } : "upstream error", headers: { "retry-after": "0" } },
});

/** The `data` of a successful call. */
export function dataOf(out: Outcome): any {
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return (out.body as { data: unknown }).data;
}

/** Bad input answered before any payment or handler: 400, no payment requirements, the field named. */
export async function expectFree400(res: Response, field: string) {
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("payment-required"), null);
  const body = await res.json();
  assert.equal(body.error.code, "invalid_input");
  assert.ok(body.error.details.issues.some((i: { field: string }) => i.field === field), JSON.stringify(body));
}

/** An upstream failure: 502/503/504 with an error body, so nothing is charged. */
export function expectUpstreamFailure(out: Outcome) {
  assert.ok([502, 503, 504].includes(out.status), JSON.stringify(out.body));
  assert.ok((out.body as { error?: { code: string } }).error?.code);
}
