import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expect402, expectFree400, expectHandler400, query } from "./_expect.ts";

const service = await startTestService({ plugins: ["converters"] });

const solidityOk =
  "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract A {\n  function f() public pure returns (uint) { return 1; }\n}\n";
const solidityBad = "contract A {\n  function f() public { uint x = ; }\n}";
const solidityUnicode = 'contract A { string s = unicode"é€"; uint x = ; }';

const cases = [
  {
    name: "valid JavaScript module with top-level await",
    input: { language: "javascript", code: "await fetch(x);\nexport const a = 1;\n" },
    errors: [],
  },
  {
    name: "a hashbang is allowed",
    input: { language: "javascript", code: "#!/usr/bin/env node\nlet a = 1;\n" },
    errors: [],
  },
  {
    name: "a missing parenthesis",
    input: { language: "javascript", code: "const total = items.reduce((a, b) => a + b, 0;\n" },
    errors: [{ line: 1, column: 46, message: "Unexpected token" }],
  },
  {
    name: "an error on a later line",
    input: { language: "javascript", code: "let a = 1;\nfunction f( {\n}" },
    errors: [{ line: 3, column: 2, message: "Unexpected token" }],
  },
  {
    name: "import in a classic script",
    input: { language: "javascript", code: "import x from 'y';", sourceType: "script" },
    errors: [{ line: 1, column: 1, message: "'import' and 'export' may appear only with 'sourceType: module'" }],
  },
  {
    name: "JSX is not JavaScript",
    input: { language: "javascript", code: "const x = <div/>;" },
    errors: [{ line: 1, column: 11, message: "Unexpected token" }],
  },
  { name: "valid JSON", input: { language: "json", code: '{"a": [1, 2]}' }, errors: [] },
  {
    name: "a trailing comma in JSON",
    input: { language: "json", code: '{\n  "a": [1, 2,]\n}' },
    errors: [{ line: 2, column: 14, message: 'Unexpected character "]"' }],
  },
  {
    name: "valid YAML with several documents",
    input: { language: "yaml", code: "a: 1\n---\nb: [1, 2]\n" },
    errors: [],
  },
  {
    name: "an unclosed YAML flow sequence",
    input: { language: "yaml", code: "a: 1\nb: [1, 2\nc: 3\n" },
    errors: [
      {
        line: 3,
        column: 1,
        message: "Flow sequence in block collection must be sufficiently indented and end with a ]",
      },
    ],
  },
  {
    name: "duplicate YAML keys",
    input: { language: "yaml", code: "a: 1\na: 2\n" },
    errors: [{ line: 2, column: 1, message: "Map keys must be unique" }],
  },
  { name: "valid XML", input: { language: "xml", code: '<?xml version="1.0"?>\n<a x="1"><b/></a>' }, errors: [] },
  {
    name: "a mismatched XML tag",
    input: { language: "xml", code: "<a><b></a>" },
    errors: [
      { line: 1, column: 7, message: "Expected closing tag 'b' (opened in line 1, col 4) instead of closing tag 'a'." },
    ],
  },
  {
    name: "an XML attribute without quotes",
    input: { language: "xml", code: "<a>\n  <b x=1/>\n</a>" },
    errors: [{ line: 2, column: 6, message: "Attribute 'x' is without value." }],
  },
  { name: "valid Solidity", input: { language: "solidity", code: solidityOk }, errors: [] },
  {
    name: "a Solidity parse error",
    input: { language: "solidity", code: solidityBad },
    errors: [
      {
        line: 2,
        column: "  function f() public { uint x = ;".length,
        message: "ParserError: Expected primary expression.",
      },
    ],
  },
  {
    name: "Solidity positions count characters, not UTF-8 bytes",
    input: { language: "solidity", code: solidityUnicode },
    errors: [
      { line: 1, column: solidityUnicode.indexOf("= ;") + 3, message: "ParserError: Expected primary expression." },
    ],
  },
];

for (const c of cases) {
  test(`validate-code: ${c.name}`, async () => {
    assert.deepEqual(dataOf(await service.call("validate-code", c.input)), {
      language: c.input.language,
      valid: c.errors.length === 0,
      errors: c.errors,
    });
  });
}

test("validate-code: a Solidity version pragma this compiler cannot satisfy", async () => {
  const data = dataOf(
    await service.call("validate-code", { language: "solidity", code: "pragma solidity ^0.4.0;\ncontract A {}" }),
  );
  assert.equal(data.valid, false);
  assert.match(data.errors[0].message, /^ParserError: Source file requires different compiler version/);
});

test("validate-code: YAML nested deeper than 100 levels is a 400 on code", async () => {
  expectHandler400(
    await service.call("validate-code", { language: "yaml", code: "[".repeat(50_000) + "]".repeat(50_000) }),
    "code",
  );
});

const bad = [
  {
    name: "TypeScript is not offered",
    query: query({ language: "typescript", code: "let a: number = 1;" }),
    field: "language",
  },
  { name: "missing language", query: query({ code: "1" }), field: "language" },
  { name: "missing code", query: query({ language: "json" }), field: "code" },
  {
    name: "an unknown sourceType",
    query: query({ language: "javascript", code: "1", sourceType: "commonjs" }),
    field: "sourceType",
  },
  {
    name: "code over 100,000 characters",
    query: query({ language: "json", code: "1".repeat(100_001) }),
    field: "code",
  },
];
for (const c of bad) {
  test(`validate-code: ${c.name} is a free 400 naming the field`, async () => {
    await expectFree400(await service.request(`/v1/validate-code?${c.query}`), c.field);
  });
}

test("validate-code: valid input without payment is a 402", async () => {
  await expect402(await service.request(`/v1/validate-code?${query({ language: "json", code: "{}" })}`));
});
