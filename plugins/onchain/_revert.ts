import * as v from "valibot";
import { decodeErrorResult, type Hex } from "viem";
import { decodeCalldata, selectorOf, toJson, type Candidate } from "./_decode.ts";
import { Arg } from "./_tx-shapes.ts";

export const Revert = v.object({
  selector: v.pipe(v.nullable(v.string()), v.description("First 4 bytes of the revert data; null for a bare revert")),
  signature: v.pipe(
    v.nullable(v.string()),
    v.description("Error(string), Panic(uint256) or a custom error, null when unknown"),
  ),
  reason: v.pipe(v.nullable(v.string()), v.description("The message of Error(string), or the meaning of a Panic code")),
  args: v.nullable(v.array(Arg)),
});

const panics: Record<string, string> = {
  "1": "assertion failed",
  "17": "arithmetic overflow or underflow",
  "18": "division or modulo by zero",
  "33": "invalid enum value",
  "34": "invalid storage byte array",
  "49": "pop on an empty array",
  "50": "array index out of bounds",
  "65": "too much memory allocated",
  "81": "call to an uninitialized function",
};

type Lookup = (selector: Hex) => Promise<{ functions: Map<string, string[]> }>;

/** Error(string) and Panic(uint256) locally; a custom error by the signatures the lookup knows for its selector. */
export async function decodeRevert(data: Hex, lookup: Lookup): Promise<v.InferOutput<typeof Revert>> {
  if (data.length < 10) return { selector: null, signature: null, reason: null, args: null };
  const selector = selectorOf(data).toLowerCase() as Hex;
  if (selector === "0x08c379a0" || selector === "0x4e487b71") {
    try {
      const { errorName, args = [] } = decodeErrorResult({ abi: [], data });
      const value = toJson(args[0]);
      const reason =
        errorName === "Panic" ? `panic ${value}: ${panics[String(value)] ?? "unknown code"}` : String(value);
      const type = errorName === "Panic" ? "uint256" : "string";
      return { selector, signature: `${errorName}(${type})`, reason, args: [{ name: null, type, value }] };
    } catch {
      return { selector, signature: null, reason: null, args: null };
    }
  }
  const known = (await lookup(selector)).functions.get(selector) ?? [];
  const [decoded]: Candidate[] = decodeCalldata(data, known);
  return { selector, signature: decoded?.signature ?? known[0] ?? null, reason: null, args: decoded?.args ?? null };
}
