import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";

const table: [string, number][] = [
  ["M", 1000],
  ["CM", 900],
  ["D", 500],
  ["CD", 400],
  ["C", 100],
  ["XC", 90],
  ["L", 50],
  ["XL", 40],
  ["X", 10],
  ["IX", 9],
  ["V", 5],
  ["IV", 4],
  ["I", 1],
];
const symbolValue: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
const canonical = /^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$/;

function toRoman(n: number): string {
  let rest = n;
  let out = "";
  for (const [symbol, value] of table) {
    while (rest >= value) {
      out += symbol;
      rest -= value;
    }
  }
  return out;
}

/** The value a loose numeral was probably meant to have (a smaller symbol before a larger one subtracts). */
function looseValue(numeral: string): number {
  const values = [...numeral].map((c) => symbolValue[c]);
  return values.reduce((sum, value, i) => sum + (value < (values[i + 1] ?? 0) ? -value : value), 0);
}

const invalid = (message: string, extra: object = {}) =>
  badRequest(message, { issues: [{ field: "value", message }], ...extra });

export default defineEndpoint({
  name: "roman",
  method: "GET",
  price: "$0.001",
  summary: "Convert between integers 1-3999 and Roman numerals, both directions",
  description:
    "A number gives its numeral, a numeral (any letter case) gives its number. Only canonical numerals are accepted: IIII, VX or IC are refused with the canonical form suggested.",
  input: v.object({
    value: v.pipe(
      v.string(),
      v.maxLength(20),
      v.regex(/^\s*(\d+|[IVXLCDMivxlcdm]+)\s*$/, "Must be an integer or a Roman numeral"),
      v.description("An integer 1-3999, or a Roman numeral such as MCMXCIV"),
    ),
  }),
  output: v.object({
    direction: v.picklist(["to-roman", "from-roman"]),
    number: v.number(),
    numeral: v.string(),
  }),
  example: {
    input: { value: "1994" },
    output: { direction: "to-roman", number: 1994, numeral: "MCMXCIV" },
  },
  handler({ input }) {
    const value = input.value.trim();
    if (/^\d+$/.test(value)) {
      const n = Number(value);
      if (n < 1 || n > 3999) throw invalid("Roman numerals cover 1 to 3999");
      return { direction: "to-roman" as const, number: n, numeral: toRoman(n) };
    }
    const numeral = value.toUpperCase();
    if (!canonical.test(numeral)) {
      const meant = looseValue(numeral);
      if (meant > 3999) throw invalid(`${numeral} would be ${meant}; Roman numerals cover 1 to 3999`);
      const suggestion = toRoman(meant);
      throw invalid(`${numeral} is not a canonical Roman numeral; did you mean ${suggestion} (${meant})?`, {
        suggestion,
      });
    }
    return { direction: "from-roman" as const, number: looseValue(numeral), numeral };
  },
});
