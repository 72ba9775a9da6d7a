import assert from "node:assert/strict";
import type { Outcome } from "../../core/runtime/invoke.ts";

/** A query string from plain values, encoded the way a client would send it. */
export const query = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

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
  assert.ok(
    body.error.details.issues.some((i: { field: string }) => i.field === field),
    JSON.stringify(body),
  );
  return body;
}
