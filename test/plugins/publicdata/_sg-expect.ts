import assert from "node:assert/strict";
import type { Outcome } from "../../../core/runtime/invoke.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";

export const fixtureDir = new URL("./fixtures/", import.meta.url);

/** The publicdata family with the given upstream overrides (`UPSTREAM_<NAME>_URL`, keys). */
export const publicdataService = (env: Record<string, string>) => startTestService({ plugins: ["publicdata"], env });

/** The `data` of a successful call. */
export function dataOf(out: Outcome): any {
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return (out.body as { data: unknown }).data;
}

/** An upstream that failed: 502 upstream_error, nothing charged. */
export function expectUpstreamFailure(out: Outcome) {
  assert.equal(out.status, 502, JSON.stringify(out.body));
  assert.equal((out.body as { error: { code: string } }).error.code, "upstream_error");
  assert.equal(out.charged, undefined);
}

/** The thing asked for does not exist: 404 not_found, nothing charged. */
export function expectNotFound(out: Outcome) {
  assert.equal(out.status, 404, JSON.stringify(out.body));
  assert.equal((out.body as { error: { code: string } }).error.code, "not_found");
  assert.equal(out.charged, undefined);
}

/** Bad input over HTTP: a free 400 before any payment, naming the field. */
export async function expectFree400(res: Response, field: string) {
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("payment-required"), null);
  const body = await res.json();
  assert.equal(body.error.code, "invalid_input");
  assert.ok(body.error.details.issues.some((i: { field: string }) => i.field === field), JSON.stringify(body));
}

/** A 500 from the upstream, answered to every retry. */
export const failing = (method: string, path: string, source: string): Fixture => ({
  source,
  request: { method, path },
  response: { status: 500, body: "Internal Server Error" },
});
