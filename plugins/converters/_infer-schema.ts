import { fullFormats } from "ajv-formats/dist/formats.js";
import { isPlainObject } from "./_json.ts";

type Kind = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";
const kindOrder: Kind[] = ["object", "array", "string", "number", "integer", "boolean", "null"];

/** What the samples seen at one place of the document have in common. */
interface Shape {
  kinds: Set<Kind>;
  /** Format every string here matched; null once two strings disagree; undefined before any string. */
  format?: string | null;
  /** Merged shape of every array element seen here. */
  items?: Shape;
  /** Objects seen here, to tell required keys (seen in every one) from optional ones. */
  objects: number;
  properties: Map<string, { shape: Shape; seen: number }>;
}

export type JsonSchema = Record<string, unknown>;

/** Infers one JSON Schema (2020-12) that every sample conforms to. */
export function inferSchema(samples: unknown[]): JsonSchema {
  const shape = samples.map(shapeOf).reduce(merge);
  return { $schema: "https://json-schema.org/draft/2020-12/schema", ...toSchema(shape) };
}

const emptyShape = (kind: Kind): Shape => ({ kinds: new Set([kind]), objects: 0, properties: new Map() });

function shapeOf(value: unknown): Shape {
  if (value === null) return emptyShape("null");
  if (typeof value === "boolean") return emptyShape("boolean");
  if (typeof value === "number") return emptyShape(Number.isInteger(value) ? "integer" : "number");
  if (typeof value === "string") return { ...emptyShape("string"), format: detectFormat(value) };
  if (Array.isArray(value))
    return { ...emptyShape("array"), items: value.length ? value.map(shapeOf).reduce(merge) : undefined };
  const shape = { ...emptyShape("object"), objects: 1 };
  if (isPlainObject(value))
    for (const [key, child] of Object.entries(value)) shape.properties.set(key, { shape: shapeOf(child), seen: 1 });
  return shape;
}

function merge(a: Shape, b: Shape): Shape {
  const properties = new Map(a.properties);
  for (const [key, theirs] of b.properties) {
    const ours = properties.get(key);
    properties.set(key, ours ? { shape: merge(ours.shape, theirs.shape), seen: ours.seen + theirs.seen } : theirs);
  }
  return {
    kinds: new Set([...a.kinds, ...b.kinds]),
    format: a.format === undefined ? b.format : b.format === undefined || a.format === b.format ? a.format : null,
    items: a.items && b.items ? merge(a.items, b.items) : (a.items ?? b.items),
    objects: a.objects + b.objects,
    properties,
  };
}

/**
 * Type-specific keywords (properties, items, format) only constrain values of their own type, so a
 * place that held several kinds still gets one schema: `type` lists the kinds, the keywords sit beside it.
 */
function toSchema(shape: Shape): JsonSchema {
  const kinds = kindOrder.filter((k) => shape.kinds.has(k) && !(k === "integer" && shape.kinds.has("number")));
  const schema: JsonSchema = { type: kinds.length === 1 ? kinds[0] : kinds };
  if (shape.format) schema.format = shape.format;
  if (shape.kinds.has("object")) {
    schema.properties = Object.fromEntries([...shape.properties].map(([key, p]) => [key, toSchema(p.shape)]));
    const required = [...shape.properties].filter(([, p]) => p.seen === shape.objects).map(([key]) => key);
    if (required.length) schema.required = required;
  }
  if (shape.items) schema.items = toSchema(shape.items);
  return schema;
}

type FormatCheck = RegExp | ((s: string) => boolean) | { validate: RegExp | ((s: string) => boolean) };
const formats = fullFormats as unknown as Record<string, FormatCheck>;

const matches = (check: FormatCheck, s: string): boolean => {
  const test = check instanceof RegExp || typeof check === "function" ? check : check.validate;
  return test instanceof RegExp ? test.test(s) : test(s);
};

/** The first format a string satisfies; a URI needs an authority (scheme://) so that "note:x" stays plain. */
function detectFormat(s: string): string | null {
  if (s.length > 2048) return null;
  for (const format of ["date-time", "date", "email", "uuid", "ipv4"]) if (matches(formats[format], s)) return format;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s) && matches(formats.uri, s)) return "uri";
  return null;
}
