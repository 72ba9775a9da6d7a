import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import luhnEndpoint from "../../../plugins/converters/luhn.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  {
    name: "a valid Visa test number with spaces",
    input: { number: "4539 1488 0343 6467" },
    data: { mode: "validate", number: "4539148803436467", valid: true, checkDigit: 7 },
  },
  {
    name: "the classic example",
    input: { number: "79927398713" },
    data: { mode: "validate", number: "79927398713", valid: true, checkDigit: 3 },
  },
  {
    name: "a wrong check digit",
    input: { number: "79927398710" },
    data: { mode: "validate", number: "79927398710", valid: false, checkDigit: 3 },
  },
  {
    name: "an IMEI with dashes",
    input: { number: "49-015420-323751-8" },
    data: { mode: "validate", number: "490154203237518", valid: true, checkDigit: 8 },
  },
  {
    name: "a swapped pair of digits is caught",
    input: { number: "4539148803436476" },
    data: { mode: "validate", number: "4539148803436476", valid: false, checkDigit: 5 },
  },
  {
    name: "generate appends the check digit",
    input: { number: "7992739871", mode: "generate" },
    data: { mode: "generate", number: "79927398713", valid: true, checkDigit: 3 },
  },
  {
    name: "generate for a single digit",
    input: { number: "0", mode: "generate" },
    data: { mode: "generate", number: "00", valid: true, checkDigit: 0 },
  },
];
for (const c of cases) {
  test(`luhn: ${c.name}`, async () => {
    const out = await service.call(luhnEndpoint, c.input as InputOf<typeof luhnEndpoint>);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.deepEqual(dataOf(out), c.data);
  });
}

test("luhn: a generated number validates", async () => {
  const made = dataOf(await service.call(luhnEndpoint, { number: "37828224631000", mode: "generate" })).number;
  assert.equal(made, "378282246310005");
  assert.equal(dataOf(await service.call(luhnEndpoint, { number: made })).valid, true);
});

test("luhn: validating one digit is a 400 on number", async () => {
  const out = await service.call(luhnEndpoint, { number: "5" });
  assert.equal(out.status, 400);
  assert.equal(issuesOf(out)[0].field, "number");
});

const bad = [
  { name: "missing number", query: "", field: "number" },
  { name: "letters in the number", query: "number=4539abc", field: "number" },
  { name: "unknown mode", query: "number=123&mode=fix", field: "mode" },
  { name: "number over 100 characters", query: `number=${"1".repeat(101)}`, field: "number" },
];
for (const c of bad) {
  test(`luhn: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/luhn?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("luhn: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/luhn?number=79927398713");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
