import assert from "node:assert/strict";
import type { Outcome } from "../../../core/runtime/call.ts";

export { dataOf, expectFree400, query } from "../../helpers/expect.ts";

export const postJson = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

/** A problem only the handler can see (a paid call that fails is not charged): 400 naming the field. */
export function expectHandler400(out: Outcome, field: string) {
  assert.equal(out.status, 400, JSON.stringify(out.body));
  const { error } = out.body as { error: { code: string; details: { issues: { field: string }[] } } };
  assert.equal(error.code, "invalid_input");
  const issue = error.details.issues.find((i) => i.field === field);
  assert.ok(issue, JSON.stringify(out.body));
  return issue as { field: string; message: string; line?: number; column?: number };
}

export async function expect402(res: Response, amount = "5000") {
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, amount);
}
