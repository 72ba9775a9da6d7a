import assert from "node:assert/strict";
import type { Outcome } from "../../../core/runtime/call.ts";

export { dataOf, expectFree400, query } from "../../helpers/expect.ts";

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
