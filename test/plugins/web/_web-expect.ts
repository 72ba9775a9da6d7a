import assert from "node:assert/strict";
import type { Outcome } from "../../../core/runtime/invoke.ts";

/** A query string from plain values, encoded the way a client would send it. */
export const query = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

/** Bad input answered before any payment or handler: 400, no payment requirements, the field named. */
export async function expectFree400(res: Response, field: string) {
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("payment-required"), null);
  const body = await res.json();
  assert.equal(body.error.code, "invalid_input");
  assert.ok(body.error.details.issues.some((i: { field: string }) => i.field === field), JSON.stringify(body));
}

/** A call the handler refused: 400 invalid_input, so nothing is charged. */
export function expectRefused(out: Outcome, message: RegExp) {
  assert.equal(out.status, 400, JSON.stringify(out.body));
  const { error } = out.body as { error: { code: string; message: string } };
  assert.equal(error.code, "invalid_input");
  assert.match(error.message, message);
}

/** A target or upstream that failed: 502 with the given code, so nothing is charged. */
export function expect502(out: Outcome, code: "target_error" | "upstream_error") {
  assert.equal(out.status, 502, JSON.stringify(out.body));
  assert.equal((out.body as { error: { code: string } }).error.code, code);
}

/** The `data` of a successful call. */
export function dataOf(out: Outcome): any {
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return (out.body as { data: unknown }).data;
}
