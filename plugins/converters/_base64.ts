import * as v from "valibot";

/**
 * A base64 (or base64url) payload in a query parameter, optionally as a `data:` URL. An unencoded `+`
 * in a query string arrives as a space, so spaces are read back as `+`.
 */
export const base64Param = (maxChars: number, description: string) =>
  v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(maxChars),
    v.regex(/^(data:[\w.+/-]+;base64,)?[A-Za-z0-9+/_ -]+={0,2}$/, "must be base64"),
    v.description(description),
  );

export function decodeBase64(text: string): Buffer {
  const payload = text.replace(/^data:[^,]*,/, "").replace(/ /g, "+");
  return Buffer.from(payload, "base64");
}
