import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { shuffled, uniformInt, uniformUnit } from "./_random.ts";

const types = ["int", "float", "string", "pick", "shuffle", "dice", "coin"] as const;
const charsets = {
  alphanumeric: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
  alpha: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
  lower: "abcdefghijklmnopqrstuvwxyz",
  upper: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  numeric: "0123456789",
  hex: "0123456789abcdef",
  base64url: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
  ascii: Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join(""),
};
const safeBound = (what: string) =>
  v.pipe(v.number(), v.minValue(-Number.MAX_SAFE_INTEGER), v.maxValue(Number.MAX_SAFE_INTEGER), v.description(what));

const times = <T>(count: number, draw: () => T) => Array.from({ length: count }, draw);

function distinct(count: number, draw: () => number): number[] {
  const seen = new Set<number>();
  while (seen.size < count) seen.add(draw());
  return [...seen];
}

const input = v.object({
  type: v.optional(
    v.pipe(v.picklist(types), v.description("int, float, string, pick (from items), shuffle (items), dice or coin")),
    "int",
  ),
  count: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(50),
      v.description("How many values, 1-50 (not used by shuffle)"),
    ),
    1,
  ),
  min: v.optional(safeBound("Lowest value for int (default 1) and float (default 0), inclusive")),
  max: v.optional(safeBound("Highest value for int (default 100, inclusive) and float (default 1, exclusive)")),
  unique: v.optional(v.pipe(v.boolean(), v.description("int and pick: no value twice")), false),
  length: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1024), v.description("Characters per string")),
    16,
  ),
  charset: v.optional(
    v.pipe(v.picklist(Object.keys(charsets) as (keyof typeof charsets)[]), v.description("Characters of a string")),
    "alphanumeric",
  ),
  items: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(1000))),
      v.minLength(1),
      v.maxLength(1000),
      v.description("Choices for pick and shuffle (comma-separated in a query)"),
    ),
  ),
  sides: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(2), v.maxValue(1000), v.description("Faces of each die")),
    6,
  ),
});
type Input = v.InferOutput<typeof input>;

function integers(i: Input): number[] {
  const min = i.min ?? 1;
  const max = i.max ?? 100;
  if (!Number.isInteger(min) || !Number.isInteger(max))
    throw fieldError("min", "min and max must be integers for type int");
  if (min > max) throw fieldError("max", "max must be at least min");
  if (!i.unique) return times(i.count, () => uniformInt(min, max));
  if (max - min + 1 < i.count)
    throw fieldError("count", `Only ${max - min + 1} distinct values lie between min and max`);
  return distinct(i.count, () => uniformInt(min, max));
}

function floats(i: Input): number[] {
  const min = i.min ?? 0;
  const max = i.max ?? 1;
  if (min >= max) throw fieldError("max", "max must be greater than min");
  return times(i.count, () => min + uniformUnit() * (max - min));
}

function picks(i: Input): string[] {
  const items = i.items;
  if (!items) throw fieldError("items", "items is required for pick");
  if (!i.unique) return times(i.count, () => items[uniformInt(0, items.length - 1)]);
  if (items.length < i.count) throw fieldError("count", `Cannot pick ${i.count} distinct items from ${items.length}`);
  return shuffled(items).slice(0, i.count);
}

function draw(i: Input): (number | string)[] {
  switch (i.type) {
    case "int":
      return integers(i);
    case "float":
      return floats(i);
    case "string": {
      const chars = charsets[i.charset];
      return times(i.count, () => times(i.length, () => chars[uniformInt(0, chars.length - 1)]).join(""));
    }
    case "pick":
      return picks(i);
    case "shuffle":
      if (!i.items) throw fieldError("items", "items is required for shuffle");
      return shuffled(i.items);
    case "dice":
      return times(i.count, () => uniformInt(1, i.sides));
    case "coin":
      return times(i.count, () => (uniformInt(0, 1) === 0 ? "heads" : "tails"));
  }
}

export default defineEndpoint({
  name: "random",
  method: "GET",
  price: "$0.001",
  summary: "Cryptographically secure random integers, floats, strings, picks, shuffles, dice rolls and coin flips",
  description:
    "Uses the operating system's CSPRNG with rejection sampling, so integers, picks and dice carry no modulo bias. Up to 50 values per call; shuffle returns the whole list (up to 1,000 items).",
  input,
  output: v.object({
    type: v.picklist(types),
    values: v.array(v.union([v.number(), v.string()])),
    total: v.optional(v.pipe(v.number(), v.description("Sum of the dice"))),
  }),
  example: {
    input: { type: "dice", count: 3, sides: 6 },
    output: { type: "dice", values: [4, 1, 6], total: 11 },
  },
  handler({ input }) {
    const values = draw(input);
    const total = input.type === "dice" ? (values as number[]).reduce((a, b) => a + b, 0) : undefined;
    return { type: input.type, values, ...(total === undefined ? {} : { total }) };
  },
});
