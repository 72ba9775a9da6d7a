import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { decodeBody } from "../_shared/page-fetch.ts";
import { elapsedSince } from "../_shared/target.ts";
import { excerptOf, signatureHeader, signBody } from "./_signing.ts";

const contentTypes = ["application/json", "text/plain", "application/x-www-form-urlencoded"] as const;
const maxBodyChars = 16_384;

export default defineEndpoint({
  name: "webhook",
  method: "GET",
  price: "$0.01",
  probes: true,
  summary: "Send one POST to a URL (optionally HMAC-signed) and report how the receiver answered",
  description:
    `POSTs \`body\` (up to ${maxBodyChars} characters; with the default content type it must be valid JSON) once to \`url\` through the ` +
    "egress guard: public http(s) targets on ports 80/443 only, redirects re-checked. With a `secret`, the request carries " +
    `\`${signatureHeader}: sha256=<hex HMAC-SHA256 of the raw body, keyed with the secret as UTF-8>\`. Whatever the receiver answers is ` +
    "reported (`ok` is true for a 2xx); a receiver that cannot be reached is a 502 (504 after the time cap) and is not charged. " +
    "This call does not retry; watches made with /v1/watch retry their deliveries.",
  input: v.object({
    url: urlInput("Receiver of the POST"),
    body: v.pipe(
      v.string(),
      v.maxLength(maxBodyChars),
      v.description(`Request body, up to ${maxBodyChars} characters`),
    ),
    contentType: v.optional(
      v.pipe(v.picklist(contentTypes), v.description("Content-Type of the body")),
      "application/json",
    ),
    secret: v.optional(
      v.pipe(
        v.string(),
        v.minLength(16),
        v.maxLength(256),
        v.description("Key to sign the body with (16-256 characters); no signature when absent"),
      ),
    ),
  }),
  output: v.object({
    url: v.string(),
    finalUrl: v.string(),
    status: v.number(),
    ok: v.boolean(),
    latencyMs: v.number(),
    bytesSent: v.number(),
    signature: v.pipe(
      v.nullable(v.string()),
      v.description(`The ${signatureHeader} value sent, null without a secret`),
    ),
    sentAt: v.string(),
    response: v.object({
      contentType: v.nullable(v.string()),
      bytes: v.number(),
      excerpt: v.pipe(v.string(), v.description("First 500 characters")),
    }),
  }),
  example: {
    input: {
      url: "https://agent.example.net/hooks/inbox",
      body: '{"event":"done"}',
      contentType: "application/json",
      secret: "a-long-shared-secret",
    },
    output: {
      url: "https://agent.example.net/hooks/inbox",
      finalUrl: "https://agent.example.net/hooks/inbox",
      status: 200,
      ok: true,
      latencyMs: 84.2,
      bytesSent: 16,
      signature: "sha256=a645d9d6b15c3a0d79027fa72772de74a0bf906522586bba2c6c18d66dbedb2b",
      sentAt: "2026-11-23T10:00:00.000Z",
      response: { contentType: "application/json", bytes: 11, excerpt: '{"ok":true}' },
    },
  },
  async handler({ input, egress, now }) {
    if (input.contentType === "application/json" && !isJson(input.body)) {
      throw badRequest("body is not valid JSON (set contentType for other bodies)", {
        issues: [{ field: "body", message: "not valid JSON" }],
      });
    }
    const signature = input.secret ? signBody(input.secret, input.body) : null;
    const headers: Record<string, string> = {
      "content-type": input.contentType,
      ...(signature ? { "x-signature": signature } : {}),
    };
    const sentAt = now().toISOString();
    const started = performance.now();
    const res = await egress.fetch(input.url, { method: "POST", headers, body: input.body });
    const latencyMs = elapsedSince(started);
    return {
      url: input.url,
      finalUrl: res.url,
      status: res.status,
      ok: res.status >= 200 && res.status < 300,
      latencyMs,
      bytesSent: Buffer.byteLength(input.body),
      signature,
      sentAt,
      response: {
        contentType: res.headers["content-type"] ?? null,
        bytes: res.body.length,
        excerpt: excerptOf(decodeBody(res.body, res.headers["content-type"])),
      },
    };
  },
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
