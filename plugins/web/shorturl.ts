import { randomInt } from "node:crypto";
import * as v from "valibot";
import { defineEndpoint, type EndpointContext } from "../../core/endpoint.ts";
import { unavailable } from "../../core/runtime/errors.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { shortUrlKey, type ShortUrlRecord } from "./_shorturls.ts";

/** No 0/O/o, 1/I/l: a code read aloud or copied by hand stays right. */
const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
const codeLength = 7;
const dayMs = 86_400_000;

export default defineEndpoint({
  name: "shorturl",
  method: "GET",
  price: "$0.005",
  probes: true,
  summary: "Create a short link for a URL, kept for a chosen number of days",
  description:
    "Stores the target under a random 7-character code (56 letters and digits, without look-alikes) in the service's " +
    "store with the chosen lifetime and returns {BASE_URL}/s/{code}. The target is resolved first and refused (400) " +
    "if it points at a private, loopback or metadata address; it is not fetched. Following {BASE_URL}/s/{code} is free: " +
    "a 302 to the target while the link lives, a 404 page after.",
  input: v.object({
    url: urlInput("Target URL"),
    ttlDays: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365), v.description("Days the link lives")),
      30,
    ),
  }),
  output: v.object({
    code: v.string(),
    shortUrl: v.string(),
    target: v.string(),
    expiresAt: v.pipe(v.string(), v.description("ISO 8601 UTC")),
  }),
  example: {
    input: { url: "https://example.com/a/very/long/path?with=query", ttlDays: 30 },
    output: {
      code: "k7Qm2Xp",
      shortUrl: "http://localhost:4021/s/k7Qm2Xp",
      target: "https://example.com/a/very/long/path?with=query",
      expiresAt: "2026-12-21T10:00:00.000Z",
    },
  },
  async handler(ctx) {
    const { input, egress, store, payer, now } = ctx;
    const { url } = await egress.check(input.url);
    const created = now();
    const record: ShortUrlRecord = {
      url,
      createdAt: created.toISOString(),
      expiresAt: new Date(created.getTime() + input.ttlDays * dayMs).toISOString(),
      payer: payer ?? null,
    };
    const ttlMs = input.ttlDays * dayMs;
    const code = await reservedCode(ctx, record, ttlMs);
    ctx.afterPayment(
      () => store.set(shortUrlKey(code), record, ttlMs),
      () => store.deleteIf(shortUrlKey(code), record),
    );
    return { code, shortUrl: `${ctx.baseUrl}/s/${code}`, target: url, expiresAt: record.expiresAt };
  },
});

/** Where a code is reserved for the link that holds it (the redirect reads only the record, once paid). */
const codeKey = (code: string) => `web:shorturl-code:${code}`;

/** A code no live link uses, reserved for this one before payment: two links never get one code. */
async function reservedCode(
  ctx: Pick<EndpointContext<unknown>, "store" | "reserve">,
  record: ShortUrlRecord,
  ttlMs: number,
): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = randomCode();
    if ((await ctx.store.get(shortUrlKey(code))) === undefined && (await ctx.reserve(codeKey(code), record, ttlMs)))
      return code;
  }
  throw unavailable("could not find a free short code, try again", 1);
}

function randomCode(): string {
  return Array.from({ length: codeLength }, () => alphabet[randomInt(alphabet.length)]).join("");
}
