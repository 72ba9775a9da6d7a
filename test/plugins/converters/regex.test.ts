import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { dataOf, errorOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import regexEndpoint from "../../../plugins/converters/regex.ts";

const service = await startTestService({ plugins: ["converters"] });

async function run(input: InputOf<typeof regexEndpoint>) {
  const out = await service.call(regexEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
}

const cases = [
  {
    name: "match returns every match with index, groups and named groups",
    input: { pattern: "(?<key>\\w+)=(\\d+)", text: "a=1 b= c=33" },
    expect: {
      op: "match",
      safe: true,
      count: 2,
      truncated: false,
      matches: [
        { match: "a=1", index: 0, end: 3, groups: ["a", "1"], named: { key: "a" } },
        { match: "c=33", index: 7, end: 11, groups: ["c", "33"], named: { key: "c" } },
      ],
    },
  },
  {
    name: "a group that took no part is null",
    input: { pattern: "(a)|(b)", text: "ab" },
    expect: {
      op: "match",
      safe: true,
      count: 2,
      truncated: false,
      matches: [
        { match: "a", index: 0, end: 1, groups: ["a", null], named: null },
        { match: "b", index: 1, end: 2, groups: [null, "b"], named: null },
      ],
    },
  },
  {
    name: "without g only the first match",
    input: { pattern: "o", flags: "", text: "foo" },
    expect: {
      op: "match",
      safe: true,
      count: 1,
      truncated: false,
      matches: [{ match: "o", index: 1, end: 2, groups: [], named: null }],
    },
  },
  {
    name: "limit truncates the list",
    input: { pattern: "\\d", text: "12345", limit: 2 },
    expect: {
      op: "match",
      safe: true,
      count: 2,
      truncated: true,
      matches: [
        { match: "1", index: 0, end: 1, groups: [], named: null },
        { match: "2", index: 1, end: 2, groups: [], named: null },
      ],
    },
  },
  {
    name: "test",
    input: { pattern: "^h.llo$", flags: "i", text: "HELLO", op: "test" },
    expect: { op: "test", safe: true, matched: true },
  },
  {
    name: "test without a match",
    input: { pattern: "z", text: "abc", op: "test" },
    expect: { op: "test", safe: true, matched: false },
  },
  {
    name: "replace with numbered and named references",
    input: {
      pattern: "(?<first>\\w+) (\\w+)",
      text: "john smith, jane doe",
      op: "replace",
      replacement: "$2 $<first>",
    },
    expect: { op: "replace", safe: true, result: "smith john, doe jane", replacements: 2 },
  },
  {
    name: "replace without g changes the first occurrence",
    input: { pattern: "a", flags: "", text: "aaa", op: "replace", replacement: "b" },
    expect: { op: "replace", safe: true, result: "baa", replacements: 1 },
  },
  {
    name: "split keeps captured separators",
    input: { pattern: "\\s*([,;])\\s*", text: "a , b;c", op: "split" },
    expect: { op: "split", safe: true, count: 5, truncated: false, parts: ["a", ",", "b", ";", "c"] },
  },
  {
    name: "unicode flag counts code points",
    input: { pattern: "\\p{Emoji_Presentation}", flags: "gu", text: "a😀b", op: "match" },
    expect: {
      op: "match",
      safe: true,
      count: 1,
      truncated: false,
      matches: [{ match: "😀", index: 1, end: 3, groups: [], named: null }],
    },
  },
];
for (const c of cases) {
  test(`regex: ${c.name}`, async () => {
    assert.deepEqual(await run(c.input as InputOf<typeof regexEndpoint>), c.expect);
  });
}

test("regex: a catastrophic pattern fails in about a second and the server keeps answering", async () => {
  const started = Date.now();
  const out = await service.call(regexEndpoint, { pattern: "^(a+)+$", text: `${"a".repeat(40)}!`, op: "test" });
  const took = Date.now() - started;
  assert.equal(out.status, 400);
  const issue = issuesOf(out)[0];
  assert.equal(issue.field, "pattern");
  assert.match(issue.message, /longer than 1000 ms.*unsafe/);
  assert.ok(took < 5000, `took ${took} ms`);
  assert.deepEqual(await run({ pattern: "a", text: "a", op: "test" }), { op: "test", safe: true, matched: true });
});

test("regex: safe-regex2 flags a risky pattern even when it finishes", async () => {
  assert.equal((await run({ pattern: "(x+x+)+y", text: "xxy", op: "test" })).safe, false);
});

test("regex: a replacement that would explode the text is refused", async () => {
  const out = await service.call(regexEndpoint, {
    pattern: "",
    text: "x".repeat(100_000),
    op: "replace",
    replacement: "y".repeat(100),
  });
  assert.equal(out.status, 400);
  assert.match(errorOf(out).message, /longer than 1000000 characters/);
});

test("regex: calls beyond the worker pool wait their turn", async () => {
  const all = await Promise.all(
    Array.from({ length: 10 }, (_, i) => run({ pattern: "\\d+", text: `n${i}`, op: "match" })),
  );
  assert.deepEqual(
    all.map((d) => d.op === "match" && d.matches[0].match),
    ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
  );
});

const refused = [
  { name: "an unterminated group", input: { pattern: "(a", text: "a" }, field: "pattern" },
  { name: "flags that cannot go together", input: { pattern: "a", flags: "uv", text: "a" }, field: "flags" },
];
for (const c of refused) {
  test(`regex: ${c.name} is a 400 on ${c.field}`, async () => {
    const out = await service.call(regexEndpoint, c.input);
    assert.equal(out.status, 400);
    assert.ok(
      issuesOf(out).some((i: any) => i.field === c.field),
      JSON.stringify(out.body),
    );
  });
}

const bad = [
  { name: "missing text", query: "pattern=a", field: "text" },
  { name: "a repeated flag", query: "pattern=a&text=a&flags=gg", field: "flags" },
  { name: "an unknown flag", query: "pattern=a&text=a&flags=x", field: "flags" },
  { name: "an unknown op", query: "pattern=a&text=a&op=count", field: "op" },
  { name: "limit over 1000", query: "pattern=a&text=a&limit=1001", field: "limit" },
  { name: "a pattern over 1000 characters", query: `pattern=${"a".repeat(1001)}&text=a`, field: "pattern" },
];
for (const c of bad) {
  test(`regex: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/regex?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("regex: valid input without payment is a 402", async () => {
  const res = await service.request("/v1/regex?pattern=a&text=abc");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "1000");
});
