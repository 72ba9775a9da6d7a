import { createHash } from "node:crypto";

/** What the reference servers answer for GET /v1/hash: the same work as our sha256 hash endpoint. */
export function hashAnswer(text: string) {
  const digest = createHash("sha256").update(text, "utf8").digest();
  return {
    algo: "sha256",
    hex: digest.toString("hex"),
    base64: digest.toString("base64"),
    bytes: Buffer.byteLength(text),
  };
}
