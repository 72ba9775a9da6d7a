import type { JsonSchema } from "../../core/runtime/schema.ts";

/** One generated bad input: the field it aims at and the raw input (a JSON value, or NaN/Infinity for in-process calls). */
export interface BadInput {
  label: string;
  input: unknown;
}

/** A malformed HTTP request: a raw query string (GET) or a raw body (POST). */
export interface RawRequest {
  label: string;
  query?: string;
  body?: string | Uint8Array<ArrayBuffer>;
}

const huge = "x".repeat(200_000);
const oddTexts = [
  "\u0000",
  "\ud800",
  "%E0%A4%A",
  "NaN",
  "-Infinity",
  "1e999",
  "../../../etc/passwd",
  "\u202e\ufeffｆｕｌｌ",
];

export const nested = (depth: number): unknown => {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

export function typesOf(schema: JsonSchema): string[] {
  if (schema.type) return [schema.type].flat();
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (schema.enum) return [...new Set<string>(schema.enum.map((x: unknown) => typeof x))];
  if ("const" in schema) return [typeof schema.const];
  return [];
}

/** Every way to get one property wrong, most telling first: a wrong type, past its limits, odd text. */
function mutationsOf(name: string, schema: JsonSchema, example: unknown): BadInput[] {
  const types = typesOf(schema);
  const out: BadInput[] = [];
  const add = (what: string, input: unknown) => out.push({ label: `${name}: ${what}`, input });
  const bounds = schema.anyOf?.find((s: JsonSchema) => s.type !== "null") ?? schema;
  if (types.includes("string")) add("an object for a string", { nested: true });
  else if (types.includes("number") || types.includes("integer")) add("text for a number", "twelve");
  else if (types.includes("boolean")) add("text for a boolean", "perhaps");
  else if (types.includes("array")) add("an object for an array", { a: 1 });
  else add("text for an object", "plain text");
  if (schema.enum || bounds.enum) add("a value outside the enum", "not-a-choice-ÿ");
  if (types.includes("string")) {
    add("far over maxLength", bounds.maxLength ? "x".repeat(bounds.maxLength * 4 + 100) : huge);
    add("an array for a scalar", [example ?? "a", example ?? "a"]);
    add("a null byte", "\u0000");
    add("odd text", oddTexts[name.length % oddTexts.length]);
  }
  if (types.includes("number") || types.includes("integer")) {
    const max = bounds.maximum ?? bounds.exclusiveMaximum;
    const min = bounds.minimum ?? bounds.exclusiveMinimum;
    add("beyond the maximum", max !== undefined ? max + 1 : 1e308);
    add("below the minimum", min !== undefined ? min - 1 : -1e308);
    add("Infinity-like text", "Infinity");
    add("NaN", Number.NaN);
    if (types.includes("integer") && !types.includes("number")) add("a fraction for an integer", 1.5);
    add("an array for a scalar", [1, 2]);
  }
  if (types.includes("boolean")) add("an array for a boolean", [true, false]);
  if (types.includes("array")) {
    const item = Array.isArray(example) && example.length ? example[0] : "a";
    add(
      "over maxItems",
      Array.from({ length: (bounds.maxItems ?? 5000) + 5 }, () => item),
    );
    add("items of the wrong type", [{ deep: nested(50) }, null, 1e308]);
  }
  if (types.includes("object") || types.length === 0) add("deeply nested JSON", nested(3000));
  return out;
}

/**
 * A bounded set of bad inputs for one endpoint: one field broken at a time on top of its valid example
 * (so the rest of the input gets as far as the handler), taking turns over the fields, plus a missing
 * required field and inputs that are not objects at all.
 */
export function badInputsFor(schema: JsonSchema, example: Record<string, unknown>, limit: number): BadInput[] {
  const properties = Object.entries<JsonSchema>(schema.properties ?? {});
  const required: string[] = schema.required ?? [];
  const fixed: BadInput[] = [];
  const missing = required.find((name) => name in example) ?? required[0];
  if (missing) {
    const { [missing]: _, ...rest } = example;
    fixed.push({ label: `${missing}: missing`, input: rest });
  }
  fixed.push(
    { label: "every field at its upper limit", input: atLimits(properties, example, "upper") },
    { label: "every field at its lower limit", input: atLimits(properties, example, "lower") },
    { label: "an array for the input", input: [example] },
    { label: "text for the input", input: "plain text" },
  );
  const perField = properties.map(([name, prop]) =>
    mutationsOf(name, prop, example[name]).map((bad) => ({
      label: bad.label,
      input: { ...example, [name]: bad.input },
    })),
  );
  const turns: BadInput[] = [];
  for (let round = 0; perField.some((list) => list.length > round); round++) {
    for (const list of perField) if (list[round]) turns.push(list[round]);
  }
  return [...fixed, ...turns].slice(0, limit);
}

const oddFill = "\u0000é𝔘\u202e<'\"%>";

/**
 * Input that is valid but extreme: longest odd text, largest numbers and fullest arrays (or the smallest),
 * so the handler meets values its schema allows and its author may not have tried.
 */
function atLimits(properties: [string, JsonSchema][], example: Record<string, unknown>, side: "upper" | "lower") {
  const input: Record<string, unknown> = { ...example };
  for (const [name, schema] of properties) {
    const s = schema.anyOf?.find((x: JsonSchema) => x.type !== "null") ?? schema;
    const types = typesOf(s);
    const free = !s.pattern && !s.format && !s.enum && !("const" in s);
    if (types.includes("string") && free) {
      const length = side === "upper" ? (s.maxLength ?? 10_000) : (s.minLength ?? 0);
      input[name] = oddFill.repeat(Math.ceil(length / oddFill.length) + 1).slice(0, length);
    } else if (types.includes("number") || types.includes("integer")) {
      const step = types.includes("integer") ? 1 : 1e-9;
      const bound =
        side === "upper"
          ? (s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - step : undefined))
          : (s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + step : undefined));
      if (bound !== undefined) input[name] = bound;
    } else if (types.includes("array") && Array.isArray(example[name]) && (example[name] as unknown[]).length) {
      const count = side === "upper" ? (s.maxItems ?? 100) : (s.minItems ?? 0);
      input[name] = Array.from(
        { length: count },
        (_, i) => (example[name] as unknown[])[i % (example[name] as unknown[]).length],
      );
    }
  }
  return input;
}

/** Malformed requests an HTTP client could send: broken escapes, oversized queries, bodies that are not JSON objects. */
export function rawRequestsFor(method: "GET" | "POST", fields: string[], maxBodyBytes: number): RawRequest[] {
  const field = fields[0] ?? "q";
  if (method === "GET") {
    return [
      { label: "an invalid percent-escape", query: `${field}=%E0%A4%A&${field}=%ZZ` },
      { label: "escaped invalid UTF-8 and a null byte", query: `${field}=%FF%FE%00%C0%AF` },
      {
        label: "a very long query string",
        query: `${field}=${"y".repeat(100_000)}&${Array.from({ length: 2000 }, (_, i) => `p${i}=1`).join("&")}`,
      },
      { label: "a repeated field", query: Array.from({ length: 500 }, () => `${field}=1`).join("&") },
    ];
  }
  return [
    { label: "a JSON array body", body: "[1,2,3]" },
    { label: "a JSON string body", body: '"text"' },
    { label: "a JSON null body", body: "null" },
    { label: "truncated JSON", body: `{"${field}":` },
    {
      label: "invalid UTF-8 bytes",
      body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]),
    },
    { label: "a number past double range", body: `{"${field}":1e999}` },
    { label: "deeply nested JSON", body: `{"${field}":${"[".repeat(5000)}${"]".repeat(5000)}}` },
    { label: "a body over the size limit", body: `{"${field}":"${"z".repeat(maxBodyBytes + 10)}"}` },
  ];
}

/** A GET query string from an input object: arrays as repeated keys, objects as JSON text. */
export function toQuery(input: unknown): string | undefined {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return undefined;
  const params = new URLSearchParams();
  const text = (x: unknown) => (x !== null && typeof x === "object" ? JSON.stringify(x) : String(x));
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, text(one));
  }
  return params.toString();
}
