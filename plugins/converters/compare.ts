import * as v from "valibot";
import { diffChars, diffLines, type ChangeObject } from "diff";
import { defineEndpoint } from "../../core/endpoint.ts";
import { documentText, parseJsonField } from "./_json.ts";
import { diffJson, round } from "./_json-diff.ts";

const Counts = v.object({ added: v.number(), removed: v.number() });
const Line = v.object({ line: v.pipe(v.number(), v.description("1-based line number (in b when added, in a when removed)")), text: v.string() });

/** Edit counts past which a diff gives up (its cost grows with them): lines are then matched ignoring order. */
const MAX_LINE_EDITS = 1000;
/** Past this, similarity is measured over whole lines instead of characters. */
const MAX_CHAR_EDITS = 500;

export default defineEndpoint({
  name: "compare",
  method: "GET",
  price: "$0.005",
  summary: "Compare two JSON documents structurally (added, removed, changed paths) or two texts line by line, with a similarity score",
  description:
    "JSON mode: objects are compared by key, arrays by index; paths are RFC 6901 JSON Pointers (\"\" is the whole " +
    "document); similarity is the share of leaf values that are equal. Text mode: added and removed lines; " +
    "similarity is 2·M/T, M being the characters both texts share in order and T the total length. Texts more " +
    "than 1,000 line edits apart are matched line by line ignoring order, and M counts whole shared lines.",
  input: v.object({
    a: documentText("First document (JSON text in json mode), at most 100,000 characters"),
    b: documentText("Second document, at most 100,000 characters"),
    mode: v.optional(v.pipe(v.picklist(["json", "text"]), v.description("json: structural comparison; text: line comparison")), "json"),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000), v.description("Most entries listed per kind of difference")), 100),
  }),
  output: v.variant("mode", [
    v.object({
      mode: v.literal("json"),
      equal: v.boolean(),
      similarity: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
      added: v.array(v.object({ path: v.string(), value: v.unknown() })),
      removed: v.array(v.object({ path: v.string(), value: v.unknown() })),
      changed: v.array(v.object({ path: v.string(), from: v.unknown(), to: v.unknown() })),
      counts: v.object({ added: v.number(), removed: v.number(), changed: v.number() }),
    }),
    v.object({
      mode: v.literal("text"),
      equal: v.boolean(),
      similarity: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
      added: v.array(Line),
      removed: v.array(Line),
      counts: Counts,
    }),
  ]),
  example: {
    input: { a: '{"name":"Ada","tags":["x"],"age":36}', b: '{"name":"Ada","tags":["x","y"],"age":37}', mode: "json", limit: 100 },
    output: {
      mode: "json",
      equal: false,
      similarity: 0.5,
      added: [{ path: "/tags/1", value: "y" }],
      removed: [],
      changed: [{ path: "/age", from: 36, to: 37 }],
      counts: { added: 1, removed: 0, changed: 1 },
    },
  },
  handler({ input }) {
    if (input.mode === "text") return { mode: "text" as const, equal: input.a === input.b, ...compareText(input.a, input.b, input.limit) };
    const diff = diffJson(parseJsonField(input.a, "a"), parseJsonField(input.b, "b"), input.limit);
    const { counts } = diff;
    return { mode: "json" as const, equal: counts.added + counts.removed + counts.changed === 0, ...diff };
  },
});

function compareText(a: string, b: string, limit: number) {
  const inOrder = diffLines(a, b, { maxEditLength: MAX_LINE_EDITS });
  const lines = inOrder ?? matchLinesIgnoringOrder(a, b);
  const added: { line: number; text: string }[] = [];
  const removed: { line: number; text: string }[] = [];
  const counts = { added: 0, removed: 0 };
  let lineA = 1;
  let lineB = 1;
  for (const part of lines) {
    for (const text of splitLines(part.value)) {
      if (part.added) {
        if (counts.added++ < limit) added.push({ line: lineB, text });
        lineB++;
      } else if (part.removed) {
        if (counts.removed++ < limit) removed.push({ line: lineA, text });
        lineA++;
      } else {
        lineA++;
        lineB++;
      }
    }
  }
  return { similarity: similarityOf(a, b, lines, inOrder !== undefined), added, removed, counts };
}

const splitLines = (text: string) => text.replace(/\r?\n$/, "").split(/\r?\n/);

/**
 * For texts too different to diff quickly: a line of a is kept when b has it (as often), else removed;
 * b's unmatched lines are added. Removals are listed before additions, each in their text's order.
 */
function matchLinesIgnoringOrder(a: string, b: string): ChangeObject<string>[] {
  const linesA = a === "" ? [] : splitLines(a);
  const linesB = b === "" ? [] : splitLines(b);
  const available = new Map<string, number>();
  for (const line of linesB) available.set(line, (available.get(line) ?? 0) + 1);
  const kept = new Map<string, number>();
  const parts: ChangeObject<string>[] = [];
  const part = (value: string, added: boolean, removed: boolean) => parts.push({ value: `${value}\n`, added, removed, count: 1 });
  for (const line of linesA) {
    const left = available.get(line) ?? 0;
    if (left > 0) {
      available.set(line, left - 1);
      kept.set(line, (kept.get(line) ?? 0) + 1);
    } else part(line, false, true);
  }
  for (const line of linesB) {
    const matched = kept.get(line) ?? 0;
    if (matched > 0) {
      kept.set(line, matched - 1);
      part(line, false, false);
    } else part(line, true, false);
  }
  return parts;
}

function similarityOf(a: string, b: string, lines: ChangeObject<string>[], tryChars: boolean): number {
  if (a.length + b.length === 0) return 1;
  const shared = (parts: ChangeObject<string>[]) => parts.filter((p) => !p.added && !p.removed).reduce((n, p) => n + p.value.length, 0);
  const chars = tryChars ? diffChars(a, b, { maxEditLength: MAX_CHAR_EDITS }) : undefined;
  return round(Math.min(1, (2 * shared(chars ?? lines)) / (a.length + b.length)));
}
