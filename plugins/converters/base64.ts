import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";

const standard = /^[A-Za-z0-9+/]*={0,2}$/;
const urlSafe = /^[A-Za-z0-9\-_]*={0,2}$/;

/**
 * Node decodes almost anything without complaint, so the text is checked strictly first. A `+` sent
 * unencoded in a query string arrives as a space, so spaces are read back as `+`; line breaks are dropped.
 */
function decodeStrict(text: string): Buffer {
  const compact = text.replace(/ /g, "+").replace(/\s+/g, "");
  const alphabetOk = standard.test(compact) || urlSafe.test(compact);
  const padded = compact.includes("=");
  const lengthOk = padded ? compact.length % 4 === 0 : compact.length % 4 !== 1;
  if (!alphabetOk || !lengthOk) {
    throw fieldError("text", "Not valid base64 (standard or URL-safe alphabet, padding optional)");
  }
  return Buffer.from(compact, "base64");
}

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export default defineEndpoint({
  name: "base64",
  method: "GET",
  price: "$0.001",
  summary: "Encode text to base64 or base64url, or decode base64 back to text",
  description:
    "Decoding accepts both alphabets and optional padding, ignores line breaks and reads spaces as + (as an unencoded + arrives in a query string). Bytes that are not valid UTF-8 are returned as hex too, with utf8Valid false.",
  input: v.object({
    text: v.pipe(v.string(), v.maxLength(100_000), v.description("Text to encode (UTF-8), or base64 to decode")),
    mode: v.optional(v.pipe(v.picklist(["encode", "decode"]), v.description("encode (default) or decode")), "encode"),
    urlsafe: v.optional(v.pipe(v.boolean(), v.description("Encode with the URL-safe alphabet and no padding")), false),
  }),
  output: v.object({
    mode: v.picklist(["encode", "decode"]),
    result: v.string(),
    bytes: v.pipe(v.number(), v.description("Byte length of the raw (unencoded) data")),
    utf8Valid: v.boolean(),
    hex: v.optional(v.pipe(v.string(), v.description("Decoded bytes as hex, when they are not valid UTF-8"))),
  }),
  example: {
    input: { text: "hello, world", mode: "encode", urlsafe: false },
    output: { mode: "encode", result: "aGVsbG8sIHdvcmxk", bytes: 12, utf8Valid: true },
  },
  handler({ input }) {
    if (input.mode === "encode") {
      const raw = Buffer.from(input.text, "utf8");
      return {
        mode: "encode" as const,
        result: raw.toString(input.urlsafe ? "base64url" : "base64"),
        bytes: raw.length,
        utf8Valid: true,
      };
    }
    const raw = decodeStrict(input.text);
    const utf8Valid = isUtf8(raw);
    return {
      mode: "decode" as const,
      result: raw.toString("utf8"),
      bytes: raw.length,
      utf8Valid,
      ...(utf8Valid ? {} : { hex: raw.toString("hex") }),
    };
  },
});
