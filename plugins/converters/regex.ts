import * as v from "valibot";
import isSafeRegex from "safe-regex2";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { RegexFailed, RegexTimeout, runRegex } from "./_regex.ts";

const RUN_TIMEOUT_MS = 1000;
const ops = ["test", "match", "replace", "split"] as const;

function compileError(pattern: string, flags: string): ReturnType<typeof fieldError> | undefined {
  try {
    new RegExp("", flags);
  } catch (error) {
    return fieldError("flags", (error as Error).message);
  }
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return fieldError("pattern", (error as Error).message);
  }
  return undefined;
}

const safe = v.pipe(
  v.boolean(),
  v.description(
    "false when safe-regex2 flags the pattern as prone to catastrophic backtracking (a heuristic that also flags some harmless patterns)",
  ),
);
const truncated = v.pipe(
  v.boolean(),
  v.description("true when limit or the 1,000,000-character output budget cut the list short"),
);
const matchShape = v.object({
  match: v.string(),
  index: v.pipe(v.number(), v.description("Start offset in UTF-16 code units")),
  end: v.number(),
  groups: v.pipe(
    v.array(v.nullable(v.string())),
    v.description("Numbered capture groups; null when a group did not take part"),
  ),
  named: v.nullable(v.record(v.string(), v.nullable(v.string()))),
});

export default defineEndpoint({
  name: "regex",
  method: "GET",
  price: "$0.001",
  summary: "Test, match, replace or split text with a JavaScript regular expression",
  description:
    "JavaScript (ECMAScript) syntax and semantics; flags default to g, so match and replace act on every occurrence. Patterns run in an isolated worker with a 1-second limit, so a catastrophic pattern fails with a 400 instead of hanging. replacement understands $1, $<name>, $& and $$.",
  input: v.object({
    pattern: v.pipe(v.string(), v.maxLength(1000), v.description("Regular expression source, without slashes")),
    flags: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^(?!.*(.).*\1)[dgimsuvy]*$/, "Flags are d, g, i, m, s, u, v, y, each at most once"),
        v.description("Regular expression flags; default g"),
      ),
      "g",
    ),
    text: v.pipe(v.string(), v.maxLength(100_000), v.description("Text to search")),
    op: v.optional(v.pipe(v.picklist(ops), v.description("test, match (default), replace or split")), "match"),
    replacement: v.optional(v.pipe(v.string(), v.maxLength(10_000), v.description("Replacement for op=replace")), ""),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000), v.description("Most matches or parts returned")),
      100,
    ),
  }),
  output: v.variant("op", [
    v.object({ op: v.literal("test"), safe, matched: v.boolean() }),
    v.object({ op: v.literal("match"), safe, count: v.number(), truncated, matches: v.array(matchShape) }),
    v.object({ op: v.literal("replace"), safe, result: v.string(), replacements: v.number() }),
    v.object({ op: v.literal("split"), safe, count: v.number(), truncated, parts: v.array(v.nullable(v.string())) }),
  ]),
  example: {
    input: {
      pattern: "(?<user>\\w+)@(\\w+)\\.com",
      flags: "g",
      text: "mail ann@example.com or bob@test.com",
      op: "match",
    },
    output: {
      op: "match",
      safe: true,
      count: 2,
      truncated: false,
      matches: [
        { match: "ann@example.com", index: 5, end: 20, groups: ["ann", "example"], named: { user: "ann" } },
        { match: "bob@test.com", index: 24, end: 36, groups: ["bob", "test"], named: { user: "bob" } },
      ],
    },
  },
  async handler({ input, signal }) {
    const problem = compileError(input.pattern, input.flags);
    if (problem) throw problem;
    const safe = isSafeRegex(input.pattern);
    try {
      const result = await runRegex<Record<string, any>>({ ...input }, RUN_TIMEOUT_MS, signal);
      switch (input.op) {
        case "test":
          return { op: "test" as const, safe, matched: result.matched };
        case "match":
          return {
            op: "match" as const,
            safe,
            count: result.matches.length,
            truncated: result.truncated,
            matches: result.matches,
          };
        case "replace":
          return { op: "replace" as const, safe, result: result.result, replacements: result.replacements };
        case "split":
          return {
            op: "split" as const,
            safe,
            count: result.parts.length,
            truncated: result.truncated,
            parts: result.parts,
          };
      }
    } catch (error) {
      if (error instanceof RegexTimeout) {
        throw fieldError(
          "pattern",
          `${error.message} on this text; it likely backtracks catastrophically (safe-regex2 says ${safe ? "safe" : "unsafe"})`,
        );
      }
      if (error instanceof RegexFailed) throw fieldError("pattern", error.message);
      throw error;
    }
  },
});
