import * as v from "valibot";
import { badRequest } from "../../core/runtime/errors.ts";

/** Longest document any converter takes as one string parameter. */
export const MAX_DOCUMENT_CHARS = 100_000;
/** Deeper documents are refused: the converters walk them recursively. */
export const MAX_DEPTH = 100;

/** A document carried as one string parameter (query or body). */
export const documentText = (description: string) =>
  v.pipe(v.string(), v.maxLength(MAX_DOCUMENT_CHARS), v.description(description));

export interface TextPosition {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

export function lineColumnAt(text: string, index: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: index - lineStart + 1 };
}

export interface JsonSyntaxError extends TextPosition {
  message: string;
}

/** Parses JSON text; on failure says what is wrong and where, which JSON.parse does not reliably do. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const found = locateJsonError(text) ?? { message: "Invalid JSON", index: 0 };
    return { ok: false, error: { message: found.message, ...lineColumnAt(text, found.index) } };
  }
}

/** Parses a JSON document given in `field`; a syntax error or excessive nesting is a 400 naming the field. */
export function parseJsonField(text: string, field: string): unknown {
  const parsed = tryParseJson(text);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    throw badRequest(`${field} is not valid JSON: ${message} at line ${line}, column ${column}`, {
      issues: [{ field, message, line, column }],
    });
  }
  assertDepth(parsed.value, field);
  return parsed.value;
}

export function assertDepth(value: unknown, field: string): void {
  if (depthOf(value) > MAX_DEPTH) {
    const message = `Nesting deeper than ${MAX_DEPTH} levels is not supported`;
    throw badRequest(`${field}: ${message}`, { issues: [{ field, message }] });
  }
}

/** Depth of nested arrays and objects, counted without recursion so any input is safe. */
export function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    max = Math.max(max, depth + 1);
    if (max > MAX_DEPTH) return max;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** RFC 6901 JSON Pointer of a path of keys and indices ("" is the whole document). */
export const toPointer = (path: readonly (string | number)[]) =>
  path.map((key) => `/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");

class ScanError extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const escapes = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

/** Finds the first syntax error in JSON text by scanning it the way the grammar (RFC 8259) reads. */
function locateJsonError(text: string): { message: string; index: number } | undefined {
  let i = 0;
  const fail = (message: string): never => {
    throw new ScanError(message, i);
  };
  const unexpected = () =>
    i >= text.length ? fail("Unexpected end of input") : fail(`Unexpected character ${JSON.stringify(text[i])}`);
  const skipSpace = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const expect = (char: string, what: string) =>
    text[i] === char ? i++ : fail(i >= text.length ? "Unexpected end of input" : `Expected ${what}`);

  const scanString = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail("Unterminated string");
      const c = text[i];
      if (c === '"') return void i++;
      if (c === "\\") {
        const next = text[i + 1];
        if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (next !== undefined && escapes.has(next)) i += 2;
        else fail("Invalid escape sequence in string");
      } else if (c < " ") fail("Control character in string (escape it)");
      else i++;
    }
  };

  const scanValue = (depth: number): void => {
    if (depth > 1000) fail("Nesting is too deep");
    skipSpace();
    const c = text[i];
    if (c === "{") {
      i++;
      skipSpace();
      if (text[i] === "}") return void i++;
      for (;;) {
        skipSpace();
        if (text[i] !== '"')
          i >= text.length ? fail("Unexpected end of input") : fail("Expected a property name in double quotes");
        scanString();
        skipSpace();
        expect(":", "':' after a property name");
        scanValue(depth + 1);
        skipSpace();
        if (text[i] === ",") i++;
        else return void expect("}", "',' or '}' after a property value");
      }
    }
    if (c === "[") {
      i++;
      skipSpace();
      if (text[i] === "]") return void i++;
      for (;;) {
        scanValue(depth + 1);
        skipSpace();
        if (text[i] === ",") i++;
        else return void expect("]", "',' or ']' after an array element");
      }
    }
    if (c === '"') return void scanString();
    numberPattern.lastIndex = i;
    const number = numberPattern.exec(text);
    if (number) return void (i += number[0].length);
    for (const literal of ["true", "false", "null"]) if (text.startsWith(literal, i)) return void (i += literal.length);
    unexpected();
  };

  try {
    scanValue(0);
    skipSpace();
    if (i < text.length) fail("Unexpected content after the JSON value");
    return undefined;
  } catch (error) {
    if (error instanceof ScanError) return { message: error.message, index: error.index };
    throw error;
  }
}
