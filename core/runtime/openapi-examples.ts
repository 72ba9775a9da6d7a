import { createRequire } from "node:module";
import type { Endpoint } from "../endpoint.ts";
import { lazy } from "../shared.ts";
import type { JsonSchema } from "./schema.ts";

const require = createRequire(import.meta.url);
/** Ajv, required when the OpenAPI document is first built rather than at boot. */
const ajv = lazy(() => {
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const addFormats = (require("ajv-formats") as typeof import("ajv-formats")).default;
  const instance = new Ajv2020({ strict: false, allErrors: false });
  addFormats(instance);
  return instance;
});
const fits = (schema: JsonSchema, value: unknown) => {
  try {
    return ajv().validate(schema, value);
  } catch {
    return false;
  }
};

/**
 * Example values of a parameter the endpoint's own example call does not give: its default, else a value
 * another endpoint's example gives a parameter of the same name, else one made from its schema; only a
 * value the schema accepts.
 */
export function parameterExamples(endpoints: readonly Endpoint[]) {
  const byName = new Map<string, unknown[]>();
  for (const e of endpoints) {
    for (const [name, value] of Object.entries((e.example.input ?? {}) as Record<string, unknown>)) {
      if (value !== undefined) (byName.get(name) ?? byName.set(name, []).get(name)!).push(value);
    }
  }
  return (name: string, schema: JsonSchema): unknown => {
    const candidates = ["default" in schema ? [schema.default] : [], byName.get(name) ?? [], made(schema)].flat();
    return candidates.find((value) => value !== undefined && fits(schema, value));
  };
}

function made(schema: JsonSchema): unknown[] {
  if ("const" in schema) return [schema.const];
  if (schema.enum) return [schema.enum[0]];
  const type = [schema.type ?? schema.anyOf?.[0]?.type].flat()[0];
  if (type === "boolean") return [true];
  if (type === "integer" || type === "number")
    return [schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1)];
  if (type === "array")
    return schema.items
      ? made(schema.items)
          .slice(0, 1)
          .map((item) => [item])
      : [];
  if (type !== "string") return [];
  const given = /e\.g\.\s+([^\s,;]+(?:\([^)]*\))?)/.exec(schema.description ?? "")?.[1];
  const address = schema.pattern === "^0x[0-9a-fA-F]{40}$" ? "0x000000000000000000000000000000000000dEaD" : undefined;
  const byFormat: Record<string, string> = {
    date: "2026-01-01",
    "date-time": "2026-01-01T00:00:00Z",
    uri: "https://example.com",
    url: "https://example.com",
    email: "user@example.com",
    uuid: "00000000-0000-4000-8000-000000000000",
  };
  return [given, address, byFormat[schema.format], "example"].filter(Boolean);
}

const errorExample = (code: string, message: string, details?: unknown) => ({
  error: { code, message, ...(details ? { details } : {}) },
});

/** One example body per documented error status. */
export const errorExamples: Record<number, unknown> = {
  400: errorExample(
    "invalid_input",
    'Invalid input for hash: Unknown parameter "algorithm"; did you mean "algo"? Known: text, algo',
    {
      issues: [
        { field: "algorithm", message: 'Unknown parameter "algorithm"; did you mean "algo"? Known: text, algo' },
      ],
    },
  ),
  429: errorExample("rate_limited", "Too many requests", { retryAfterSeconds: 30 }),
  502: errorExample("upstream_error", "coingecko answered 500", { upstream: "coingecko" }),
  503: errorExample("unavailable", "coingecko is failing; retry later", { upstream: "coingecko" }),
  504: errorExample("upstream_timeout", "coingecko did not answer in time", { upstream: "coingecko" }),
};
