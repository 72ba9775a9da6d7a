import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import type { RE2JS } from "re2js";
import { badRequest } from "../../core/runtime/errors.ts";
import { lazy } from "../../core/shared.ts";
import { MAX_DOCUMENT_CHARS, assertDepth } from "./_json.ts";

const require = createRequire(import.meta.url);
/** Ajv (three drafts and the formats) and RE2, required on the first schema compiled rather than at boot. */
const engines = lazy(() => ({
  Ajv: (require("ajv") as typeof import("ajv")).Ajv,
  Ajv2019: (require("ajv/dist/2019.js") as typeof import("ajv/dist/2019.js")).Ajv2019,
  Ajv2020: (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020,
  addFormats: (require("ajv-formats") as typeof import("ajv-formats")).default,
  RE2JS: (require("re2js") as typeof import("re2js")).RE2JS,
}));

export const drafts = ["2020-12", "2019-09", "draft-07"] as const;
export type Draft = (typeof drafts)[number];

const draftOfUri: Record<string, Draft> = {
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "https://json-schema.org/draft/2019-09/schema": "2019-09",
  "http://json-schema.org/draft-07/schema": "draft-07",
};

const field = "schema";
const refuse = (message: string) => badRequest(`${field}: ${message}`, { issues: [{ field, message }] });

/** The draft a schema asks for with `$schema`; 2020-12 when it names none. */
export function draftOf(schema: Record<string, unknown>): Draft {
  if (looksLikeArray(schema)) throw refuse("a schema is an object, not an array");
  if (schema.$schema === undefined) return "2020-12";
  const uri = typeof schema.$schema === "string" ? schema.$schema.replace(/#$/, "") : "";
  const draft = draftOfUri[uri];
  if (!draft)
    throw refuse(`$schema ${JSON.stringify(schema.$schema)} is not supported; use 2020-12, 2019-09 or draft-07`);
  return draft;
}

/** The input schema's record accepts an array and hands it over keyed by index ("0", "1", ...). */
const looksLikeArray = (schema: Record<string, unknown>) =>
  Array.isArray(schema) || (Object.keys(schema).length > 0 && Object.keys(schema).every((key, i) => key === String(i)));

const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 50;

/**
 * Compiles a caller's schema. Nothing is ever fetched: compile() is synchronous and no `loadSchema`
 * is configured, so a remote `$ref` is an unresolved reference (a 400). `pattern` and `patternProperties` run
 * on RE2 (re2js), whose time is linear in the text whatever the pattern: validation runs on the event loop,
 * where one backtracking pattern held every caller for seconds. RE2 has no lookaround or backreference; a
 * pattern using them is a 400.
 */
export function compileSchema(schema: Record<string, unknown>, draft: Draft): ValidateFunction {
  const text = JSON.stringify(schema);
  if (text.length > MAX_DOCUMENT_CHARS)
    throw refuse(`the schema may be at most ${MAX_DOCUMENT_CHARS} characters as JSON`);
  assertDepth(schema, field);
  const key = `${draft}:${text}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const ajv = newAjv(draft);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw refuse((error as Error).message);
  }
  if ("$async" in validate && validate.$async) throw refuse("$async schemas are not supported");
  if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, validate);
  return validate;
}

function newAjv(draft: Draft) {
  const { Ajv, Ajv2019, Ajv2020, addFormats } = engines();
  const options = { allErrors: true, strict: false, validateFormats: true, code: { regExp: linearRegExp } } as const;
  const ajv =
    draft === "2020-12" ? new Ajv2020(options) : draft === "2019-09" ? new Ajv2019(options) : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

/** Ajv's regular expression engine: RE2, linear in the text's length. */
function linearRegExp(pattern: string): { test(text: string): boolean; toString(): string } {
  let re: RE2JS;
  try {
    re = engines().RE2JS.compile(pattern);
  } catch (error) {
    throw new Error(
      `the pattern ${JSON.stringify(pattern.slice(0, 200))} is not supported: ${(error as Error).message} (no lookaround or backreferences)`,
    );
  }
  // Ajv keys its compiled patterns by toString().
  return { test: (text: string) => re.test(text), toString: () => `re2:${pattern}` };
}
linearRegExp.code = "linearRegExp";
