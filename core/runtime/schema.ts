import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Endpoint } from "../endpoint.ts";
import { badRequest } from "./errors.ts";
import { jsonOrText } from "../shared.ts";

export type JsonSchema = Record<string, any>;

interface Compiled {
  input: JsonSchema;
  output: JsonSchema;
  /** JSON types of each top-level input property, for coercing query strings. */
  queryTypes: Map<string, string[]>;
}

const compiled = new WeakMap<Endpoint, Compiled>();

/** JSON Schema 2020-12 of an endpoint's input and output; throws when a schema does not convert. */
export function schemasOf(endpoint: Endpoint): Compiled {
  let c = compiled.get(endpoint);
  if (!c) {
    const convert = (schema: v.GenericSchema, typeMode: "input" | "output") => {
      const { $schema, ...json } = toJsonSchema(schema, { errorMode: "throw", typeMode, target: "draft-2020-12" });
      return json as JsonSchema;
    };
    const input = convert(endpoint.input, "input");
    // The input is strict (an unknown parameter is a 400), and the documents say so.
    if (input.type === "object") input.additionalProperties = false;
    if (endpoint.oneOf) input.oneOf = endpoint.oneOf.map((group) => ({ required: [...group] }));
    // Input mode skips transforms silently; converting the output side too refuses them, so what is
    // documented is exactly what is validated.
    convert(endpoint.input, "output");
    const queryTypes = new Map<string, string[]>();
    for (const [name, prop] of Object.entries<JsonSchema>(input.properties ?? {}))
      queryTypes.set(name, jsonTypes(prop));
    c = { input, output: convert(endpoint.output, "output"), queryTypes };
    compiled.set(endpoint, c);
  }
  return c;
}

function jsonTypes(schema: JsonSchema): string[] {
  if (schema.type) return [schema.type].flat();
  if (schema.anyOf) return schema.anyOf.flatMap(jsonTypes);
  if (schema.enum) return [...new Set(schema.enum.map((x: unknown) => typeof x))] as string[];
  if ("const" in schema) return [typeof schema.const];
  return [];
}

/**
 * Query strings carry only text: turn each value into the JSON type its schema expects, the way
 * fastify's Ajv `coerceTypes: "array"` does. Values that do not fit are left as text for the schema to reject.
 */
export function coerceQuery(endpoint: Endpoint, query: URLSearchParams): Record<string, unknown> {
  const { queryTypes } = schemasOf(endpoint);
  const out: Record<string, unknown> = {};
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    const types = queryTypes.get(name) ?? ["string"];
    if (types.includes("array"))
      out[name] =
        values.length === 1 && values[0].trimStart().startsWith("[")
          ? jsonOrText(values[0])
          : values.flatMap((x) => x.split(",")).filter((x) => x !== "");
    else out[name] = coerceScalar(values[values.length - 1], types);
  }
  return out;
}

function coerceScalar(text: string, types: string[]): unknown {
  if (types.includes("string")) return text;
  if ((types.includes("number") || types.includes("integer")) && text.trim() !== "" && Number.isFinite(Number(text)))
    return Number(text);
  if (types.includes("boolean")) {
    if (text === "true" || text === "1") return true;
    if (text === "false" || text === "0") return false;
  }
  if (types.includes("object") || types.includes("array")) {
    try {
      return JSON.parse(text);
    } catch {}
  }
  return text;
}

/**
 * Validates raw input: every problem is listed, with its field path. A parameter the endpoint does not know
 * is one of them: dropping it silently would charge for an answer to a question the caller did not ask.
 */
export function parseInput<T>(endpoint: Endpoint, raw: unknown): T {
  const unknown = unknownParameters(endpoint, raw);
  const result = v.safeParse(endpoint.input, raw ?? {});
  if (unknown.length || !result.success) {
    const issues = [...unknown, ...(result.success ? [] : toFieldIssues(result.issues))];
    throw badRequest(
      unknown.length
        ? `Invalid input for ${endpoint.name}: ${unknown[0].message}`
        : `Invalid input for ${endpoint.name}`,
      { issues },
    );
  }
  if (endpoint.oneOf) checkOneOf(endpoint.oneOf, raw as Record<string, unknown>, endpoint.name);
  return result.output as T;
}

function checkOneOf(groups: readonly (readonly string[])[], raw: Record<string, unknown>, name: string): void {
  const given = (field: string) => raw?.[field] !== undefined;
  const touched = groups.filter((group) => group.some(given));
  const options = groups.map((group) => group.join(" and ")).join(", or ");
  let issue: { field: string; message: string } | undefined;
  if (touched.length === 0) issue = { field: groups[0][0], message: `Give ${options}` };
  else if (touched.length > 1) issue = { field: touched[1].find(given)!, message: `Give only one of: ${options}` };
  else {
    const missing = touched[0].find((field) => !given(field));
    if (missing) issue = { field: missing, message: `${touched[0].join(" and ")} go together` };
  }
  if (issue) throw badRequest(`Invalid input for ${name}`, { issues: [issue] });
}

function unknownParameters(endpoint: Endpoint, raw: unknown): { field: string; message: string }[] {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return [];
  const known = Object.keys(schemasOf(endpoint).input.properties ?? {});
  return Object.keys(raw)
    .filter((name) => !known.includes(name))
    .map((name) => {
      const nearest = nearestName(name, known);
      const hint = nearest ? `; did you mean "${nearest}"?` : "; this endpoint takes no parameters";
      return { field: name, message: `Unknown parameter "${name}"${hint} Known: ${known.join(", ") || "none"}` };
    });
}

/** The known name closest to a misspelt one: one that contains the other first, then the fewest edits. */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const score = (k: string) =>
    (lower.includes(k.toLowerCase()) || k.toLowerCase().includes(lower) ? 0 : 1) * 1000 +
    editDistance(lower, k.toLowerCase());
  return [...known].sort((a, b) => score(a) - score(b))[0];
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

export function toFieldIssues(issues: readonly v.BaseIssue<unknown>[]) {
  return issues.map((issue) => ({ field: v.getDotPath(issue) ?? "", message: issue.message }));
}

/** What the route answers for its example: the `{meta, data}` envelope around the example's output. */
export function exampleAnswer(endpoint: Endpoint): unknown {
  if (endpoint.raw) return endpoint.example.output;
  return {
    meta: { product: endpoint.family, endpoint: endpoint.name, ts: "2026-11-21T12:00:00.000Z" },
    data: endpoint.example.output,
  };
}

/** The `{meta, data}` envelope of every paid JSON answer, around the schema of its `data`. */
export const envelope = (data: JsonSchema) => ({
  type: "object",
  required: ["meta", "data"],
  properties: {
    meta: {
      type: "object",
      required: ["product", "endpoint", "ts"],
      properties: {
        product: { type: "string" },
        endpoint: { type: "string" },
        ts: { type: "string", format: "date-time" },
        sources: { type: "array", items: { type: "string" } },
        cached: { type: "boolean" },
      },
    },
    data,
  },
});
