import assert from "node:assert/strict";
import type { Outcome } from "../../../core/runtime/call.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";

export { dataOf, expectFree400 } from "../../helpers/expect.ts";

export const fixtureDir = new URL("./fixtures/", import.meta.url);

/** The publicdata family with the given upstream overrides (`UPSTREAM_<NAME>_URL`, keys). */
export const publicdataService = (env: Record<string, string>) => startTestService({ plugins: ["publicdata"], env });

/** An upstream that failed: 502 upstream_error, nothing charged. */
export function expectUpstreamFailure(out: Outcome) {
  assert.equal(out.status, 502, JSON.stringify(out.body));
  assert.equal((out.body as { error: { code: string } }).error.code, "upstream_error");
}

/** The thing asked for does not exist: 404 not_found, nothing charged. */
export function expectNotFound(out: Outcome) {
  assert.equal(out.status, 404, JSON.stringify(out.body));
  assert.equal((out.body as { error: { code: string } }).error.code, "not_found");
}

/** A 500 from the upstream, answered to every retry. */
export const failing = (method: string, path: string, source: string): Fixture => ({
  source,
  request: { method, path },
  response: { status: 500, body: "Internal Server Error" },
});
