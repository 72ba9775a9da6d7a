import { test } from "node:test";
import assert from "node:assert/strict";
import { isCreditCode, newCreditCode } from "../../core/payment/credits.ts";

test("credit codes: 2,000 fresh codes, across several refills of their pooled randomness, are all distinct and well-formed", () => {
  const codes = Array.from({ length: 2000 }, newCreditCode);
  assert.equal(new Set(codes).size, 2000);
  assert.equal(codes.filter(isCreditCode).length, 2000);
});
