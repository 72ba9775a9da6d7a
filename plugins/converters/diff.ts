import * as v from "valibot";
import { createTwoFilesPatch, diffChars, diffLines, diffWords, type Change } from "diff";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";

/** Each diff runs in jsdiff's async mode (it yields to the event loop) and gives up after this long. */
const DIFF_TIMEOUT_MS = 2000;
const modes = ["lines", "words", "chars"] as const;
type Mode = (typeof modes)[number];
interface Options {
  ignoreCase: boolean;
  ignoreWhitespace: boolean;
}

function changesOf(mode: Mode, a: string, b: string, o: Options): Promise<Change[] | undefined> {
  return new Promise((resolve) => {
    const common = { timeout: DIFF_TIMEOUT_MS, callback: resolve };
    if (mode === "lines") diffLines(a, b, { ...common, ignoreWhitespace: o.ignoreWhitespace });
    else if (mode === "words") diffWords(a, b, { ...common, ignoreCase: o.ignoreCase });
    else diffChars(a, b, { ...common, ignoreCase: o.ignoreCase });
  });
}

function patchOf(
  a: string,
  b: string,
  names: [string, string],
  context: number,
  o: Options,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    createTwoFilesPatch(names[0], names[1], a, b, undefined, undefined, {
      context,
      ignoreWhitespace: o.ignoreWhitespace,
      timeout: DIFF_TIMEOUT_MS,
      callback: resolve,
    });
  });
}

const tooDifferent = () =>
  fieldError(
    "b",
    `a and b differ too much to compare within ${DIFF_TIMEOUT_MS / 1000} s; try mode=lines or shorter texts`,
  );

const text = (what: string) => v.pipe(v.string(), v.maxLength(100_000), v.description(what));
const name = (what: string, fallback: string) =>
  v.optional(
    v.pipe(v.string(), v.maxLength(200), v.regex(/^[^\r\n]*$/, "One line only"), v.description(what)),
    fallback,
  );

export default defineEndpoint({
  name: "diff",
  method: "GET",
  price: "$0.001",
  summary: "Compare two texts by lines, words or characters, with a unified patch",
  description:
    "changes lists the runs of unchanged, added and removed tokens in order; patch is a unified diff of the lines, ready for git apply or patch. Very different large texts fail with a 400 after 2 seconds.",
  input: v.object({
    a: text("Original text"),
    b: text("Changed text"),
    mode: v.optional(
      v.pipe(v.picklist(modes), v.description("Granularity of changes: lines (default), words or chars")),
      "lines",
    ),
    ignoreCase: v.optional(
      v.pipe(v.boolean(), v.description("words and chars: treat upper and lower case as equal")),
      false,
    ),
    ignoreWhitespace: v.optional(
      v.pipe(v.boolean(), v.description("lines and patch: ignore leading and trailing whitespace")),
      false,
    ),
    context: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(100),
        v.description("Unchanged lines around each patch hunk"),
      ),
      3,
    ),
    aName: name("File name of a in the patch header", "a"),
    bName: name("File name of b in the patch header", "b"),
  }),
  output: v.object({
    mode: v.picklist(modes),
    identical: v.boolean(),
    stats: v.pipe(
      v.object({ added: v.number(), removed: v.number(), unchanged: v.number() }),
      v.description("Token counts (lines, words or characters by mode)"),
    ),
    changes: v.array(
      v.object({ type: v.picklist(["unchanged", "added", "removed"]), value: v.string(), count: v.number() }),
    ),
    patch: v.pipe(v.string(), v.description("Unified diff of the lines")),
  }),
  example: {
    input: { a: "one\ntwo\nthree\n", b: "one\n2\nthree\n" },
    output: {
      mode: "lines",
      identical: false,
      stats: { added: 1, removed: 1, unchanged: 2 },
      changes: [
        { type: "unchanged", value: "one\n", count: 1 },
        { type: "removed", value: "two\n", count: 1 },
        { type: "added", value: "2\n", count: 1 },
        { type: "unchanged", value: "three\n", count: 1 },
      ],
      patch:
        "===================================================================\n--- a\n+++ b\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n",
    },
  },
  async handler({ input }) {
    const changes = await changesOf(input.mode, input.a, input.b, input);
    const patch = changes && (await patchOf(input.a, input.b, [input.aName, input.bName], input.context, input));
    if (!changes || patch === undefined) throw tooDifferent();
    const typed = changes.map(
      (c) =>
        ({ type: c.added ? "added" : c.removed ? "removed" : "unchanged", value: c.value, count: c.count }) as const,
    );
    const total = (type: string) => typed.filter((c) => c.type === type).reduce((n, c) => n + c.count, 0);
    return {
      mode: input.mode,
      identical: typed.every((c) => c.type === "unchanged"),
      stats: { added: total("added"), removed: total("removed"), unchanged: total("unchanged") },
      changes: typed,
      patch,
    };
  },
});
