import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import romanEndpoint from "../../../plugins/converters/roman.ts";

const service = await startTestService({ plugins: ["converters"] });

const cases = [
  { value: "1", direction: "to-roman", number: 1, numeral: "I" },
  { value: "4", direction: "to-roman", number: 4, numeral: "IV" },
  { value: "1994", direction: "to-roman", number: 1994, numeral: "MCMXCIV" },
  { value: "3999", direction: "to-roman", number: 3999, numeral: "MMMCMXCIX" },
  { value: "2024", direction: "to-roman", number: 2024, numeral: "MMXXIV" },
  { value: "XLII", direction: "from-roman", number: 42, numeral: "XLII" },
  { value: "mcmxciv", direction: "from-roman", number: 1994, numeral: "MCMXCIV" },
  { value: "MMMCMXCIX", direction: "from-roman", number: 3999, numeral: "MMMCMXCIX" },
  { value: " CDXLIV ", direction: "from-roman", number: 444, numeral: "CDXLIV" },
];
for (const c of cases) {
  test(`roman: ${c.value.trim()}`, async () => {
    const out = await service.call(romanEndpoint, { value: c.value });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.deepEqual(dataOf(out), { direction: c.direction, number: c.number, numeral: c.numeral });
  });
}

test("roman: every number survives the round trip", async () => {
  for (const n of [1, 9, 14, 40, 90, 400, 999, 1444, 2888, 3999]) {
    const numeral = dataOf(await service.call(romanEndpoint, { value: String(n) })).numeral;
    const back = dataOf(await service.call(romanEndpoint, { value: numeral })).number;
    assert.equal(back, n, numeral);
  }
});

const refused = [
  { value: "IIII", message: /not a canonical.*did you mean IV \(4\)/, suggestion: "IV" },
  { value: "IC", message: /did you mean XCIX \(99\)/, suggestion: "XCIX" },
  { value: "VV", message: /did you mean X \(10\)/, suggestion: "X" },
  { value: "MMMM", message: /would be 4000; Roman numerals cover 1 to 3999/, suggestion: undefined },
  { value: "0", message: /cover 1 to 3999/, suggestion: undefined },
  { value: "4000", message: /cover 1 to 3999/, suggestion: undefined },
];
for (const c of refused) {
  test(`roman: ${c.value} is a 400 on value`, async () => {
    const out = await service.call(romanEndpoint, { value: c.value });
    assert.equal(out.status, 400);
    const { error } = out.body as any;
    assert.equal(error.details.issues[0].field, "value");
    assert.match(error.message, c.message);
    assert.equal(error.details.suggestion, c.suggestion);
  });
}

const bad = [
  { name: "missing value", query: "" },
  { name: "letters that are no numerals", query: "value=ABC" },
  { name: "a negative number", query: "value=-5" },
  { name: "a decimal", query: "value=1.5" },
  { name: "a mix of digits and numerals", query: "value=1X" },
];
for (const c of bad) {
  test(`roman: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/roman?${c.query}`);
    await expectFree400(res, "value");
  });
}

test("roman: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/roman?value=XIV");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
