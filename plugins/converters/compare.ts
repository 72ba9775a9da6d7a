import * as v from "valibot";
import { diffChars, diffLines, type ChangeObject } from "diff";
import { defineEndpoint } from "../../core/endpoint.ts";
import { documentText, parseJsonField } from "./_json.ts";
import { diffJson, round } from "./_json-diff.ts";

const Line = v.object({
  line: v.pipe(v.number(), v.description("1-based line number (in b when added, in a when removed)")),
  text: v.string(),
});

/** Edit counts past which a diff gives up (its cost grows with them): lines are then matched ignoring order. */
const MAX_LINE_EDITS = 1000;
/** Past this, similarity is measured over whole lines instead of characters. */
const MAX_CHAR_EDITS = 500;

export default defineEndpoint({
  name: "compare",
  method: "GET",
  price: "$0.005",
  summary:
    "Compare two JSON documents structurally (added, removed, changed paths) or two texts line by line, with a similarity score",
  description:
    'JSON mode: objects are compared by key, arrays by index; paths are RFC 6901 JSON Pointers ("" is the whole ' +
    "document); similarity is the share of leaf values that are equal. Text mode: added and removed lines; " +
    "similarity is 2·M/T, M being the characters both texts share in order and T the total length. Texts more " +
    "than 1,000 line edits apart are matched line by line ignoring order, and M counts whole shared lines.",
  input: v.object({
    a: documentText("First document (JSON text in json mode), at most 100,000 characters"),
    b: documentText("Second document, at most 100,000 characters"),
    mode: v.optional(
      v.pipe(v.picklist(["json", "text"]), v.description("json: structural comparison; text: line comparison")),
      "json",
    ),
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(1000),
        v.description("Most entries listed per kind of difference"),
      ),
      100,
    ),
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
      counts: v.object({ added: v.number(), removed: v.number() }),
    }),
  ]),
  example: {
    input: {
      a: '{"name":"Ada","tags":["x"],"age":36}',
      b: '{"name":"Ada","tags":["x","y"],"age":37}',
      mode: "json",
      limit: 100,
    },
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
    if (input.mode === "text")
      return { mode: "text" as const, equal: input.a === input.b, ...compareText(input.a, input.b, input.limit) };
    const diff = diffJson(parseJsonField(input.a, "a"), parseJsonField(input.b, "b"), input.limit);
    const { counts } = diff;
    return { mode: "json" as const, equal: counts.added + counts.removed + counts.changed === 0, ...diff };
  },
});

interface LineChanges {
  added: { line: number; text: string }[];
  removed: { line: number; text: string }[];
  /** Characters in lines both texts keep. */
  sharedChars: number;
}

function compareText(a: string, b: string, limit: number) {
  const inOrder = diffLines(a, b, { maxEditLength: MAX_LINE_EDITS });
  const changes = inOrder ? changesInOrder(inOrder) : changesIgnoringOrder(a, b);
  const chars = inOrder ? diffChars(a, b, { maxEditLength: MAX_CHAR_EDITS }) : undefined;
  const shared = chars
    ? chars.filter((p) => !p.added && !p.removed).reduce((n, p) => n + p.value.length, 0)
    : changes.sharedChars;
  return {
    similarity: a.length + b.length === 0 ? 1 : round(Math.min(1, (2 * shared) / (a.length + b.length))),
    added: changes.added.slice(0, limit),
    removed: changes.removed.slice(0, limit),
    counts: { added: changes.added.length, removed: changes.removed.length },
  };
}

const splitLines = (text: string) => (text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/));

function changesInOrder(parts: ChangeObject<string>[]): LineChanges {
  const changes: LineChanges = { added: [], removed: [], sharedChars: 0 };
  let lineA = 1;
  let lineB = 1;
  for (const part of parts) {
    if (!part.added && !part.removed) changes.sharedChars += part.value.length;
    for (const text of splitLines(part.value)) {
      if (part.added) changes.added.push({ line: lineB++, text });
      else if (part.removed) changes.removed.push({ line: lineA++, text });
      else {
        lineA++;
        lineB++;
      }
    }
  }
  return changes;
}

/** For texts too far apart to diff quickly: a line is kept when the other text has it (as many times). */
function changesIgnoringOrder(a: string, b: string): LineChanges {
  const changes: LineChanges = { added: [], removed: [], sharedChars: 0 };
  const linesA = splitLines(a);
  const linesB = splitLines(b);
  const unmatched = (lines: string[]) => {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  };
  const inB = unmatched(linesB);
  const inA = unmatched(linesA);
  const take = (counts: Map<string, number>, line: string) => {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    return left > 0;
  };
  linesA.forEach((text, i) => {
    if (take(inB, text)) changes.sharedChars += text.length + 1;
    else changes.removed.push({ line: i + 1, text });
  });
  linesB.forEach((text, i) => {
    if (!take(inA, text)) changes.added.push({ line: i + 1, text });
  });
  return changes;
}
