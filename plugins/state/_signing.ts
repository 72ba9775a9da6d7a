import { createHmac, randomBytes } from "node:crypto";

/** The header a signed delivery carries: `sha256=` and the hex HMAC-SHA256 of the raw body, keyed by the secret. */
export const signatureHeader = "X-Signature";

export const signatureScheme =
  `${signatureHeader}: sha256=<hex HMAC-SHA256 of the raw request body, keyed with the secret as UTF-8>; ` +
  "X-Webhook-Id carries the event id (the same on every retry, to drop duplicates) and X-Webhook-Attempt the attempt number.";

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

export const newSecret = () => `whsec_${randomBytes(24).toString("base64url")}`;

export function excerptOf(text: string, max = 500): string {
  return text.length <= max ? text : text.slice(0, max);
}
