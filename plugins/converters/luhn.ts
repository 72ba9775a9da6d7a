import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";

/** The digit that, appended to `payload`, makes the Luhn sum a multiple of 10. */
function checkDigitFor(payload: string): number {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    const digit = Number(payload[payload.length - 1 - i]);
    const doubled = i % 2 === 0 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return (10 - (sum % 10)) % 10;
}

export default defineEndpoint({
  name: "luhn",
  method: "GET",
  price: "$0.001",
  summary: "Validate a Luhn (mod 10) number such as a card number or IMEI, or generate its check digit",
  description:
    "validate treats the last digit as the check digit; generate appends one to the digits given. Spaces and dashes are ignored. Numbers are not stored or logged.",
  input: v.object({
    number: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(100),
      v.regex(/^[\d\s-]+$/, "Digits, spaces and dashes only"),
      v.description("Digits, optionally grouped with spaces or dashes"),
    ),
    mode: v.optional(
      v.pipe(v.picklist(["validate", "generate"]), v.description("validate (default) or generate")),
      "validate",
    ),
  }),
  output: v.object({
    mode: v.picklist(["validate", "generate"]),
    number: v.pipe(
      v.string(),
      v.description("Digits only; with generate, the full number including the new check digit"),
    ),
    valid: v.boolean(),
    checkDigit: v.pipe(v.number(), v.description("The correct check digit for the payload")),
  }),
  example: {
    input: { number: "4539 1488 0343 6467", mode: "validate" },
    output: { mode: "validate", number: "4539148803436467", valid: true, checkDigit: 7 },
  },
  handler({ input }) {
    const digits = input.number.replace(/[\s-]/g, "");
    const needed = input.mode === "validate" ? 2 : 1;
    if (digits.length < needed) {
      throw fieldError("number", `number needs at least ${needed} digit${needed > 1 ? "s" : ""} to ${input.mode}`);
    }
    if (input.mode === "generate") {
      const checkDigit = checkDigitFor(digits);
      return { mode: "generate" as const, number: `${digits}${checkDigit}`, valid: true, checkDigit };
    }
    const checkDigit = checkDigitFor(digits.slice(0, -1));
    return { mode: "validate" as const, number: digits, valid: checkDigit === Number(digits.at(-1)), checkDigit };
  },
});
