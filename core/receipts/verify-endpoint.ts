import * as v from "valibot";
import { defineEndpoint } from "../endpoint.ts";
import { verifyReceipt } from "./verify.ts";
import { example } from "./verify-example.ts";

const claim = (what: string) => v.optional(v.pipe(v.string(), v.maxLength(2048), v.description(what)));

/** `POST /v1/receipts/verify`: free, against the key this service publishes in `/.well-known/did.json`. */
export const receiptsVerify = defineEndpoint({
  name: "receipts/verify",
  method: "POST",
  price: "$0",
  summary: "Check a signed receipt of this service against the body it covers, and what it claims",
  description:
    "Free. `receipt` is the JWS from a paid answer's PAYMENT-RECEIPT header (or PAYMENT-RESPONSE's offer-receipt " +
    "extension); `body` the answer's body exactly as received, before any content decoding is undone (the " +
    "identity bytes; `bodyBase64` for bytes that are not text). Valid only when the receipt is signed by the key " +
    "this service publishes at /.well-known/did.json for the domain the receipt names, the body's SHA-256 is the " +
    "one it signed, and each claim given (route, price in USDC atomic units, resourceUrl, payer) is what it signed.",
  input: v.object({
    receipt: v.pipe(v.string(), v.maxLength(8192), v.description("The receipt: a JWS compact serialization")),
    body: claim("The answer's body as text, exactly as received"),
    bodyBase64: v.optional(v.pipe(v.string(), v.maxLength(1_500_000), v.description("The body's bytes, base64"))),
    route: claim("The route it is said to be for, e.g. `GET /v1/hash`"),
    price: claim("The price it is said to have been sold at, in USDC atomic units"),
    resourceUrl: claim("The resource URL it is said to be for"),
    payer: claim("The wallet it is said to have been sold to"),
  }),
  oneOf: [["body"], ["bodyBase64"]],
  output: v.object({
    valid: v.boolean(),
    reason: v.optional(
      v.pipe(
        v.string(),
        v.description("Why not: malformed, wrong_key, bad_signature, body_mismatch, <claim>_mismatch"),
      ),
    ),
    message: v.optional(v.string()),
    receipt: v.optional(v.record(v.string(), v.unknown())),
  }),
  example,
  async handler({ input, instance }) {
    const key = instance.signingKey;
    if (!key) return { valid: false, reason: "receipts_off", message: "This service signs no receipts (RECEIPTS=off)" };
    const body =
      input.bodyBase64 !== undefined ? Buffer.from(input.bodyBase64, "base64") : Buffer.from(input.body ?? "");
    const { receipt: _, body: __, bodyBase64: ___, ...expected } = input;
    const verdict = await verifyReceipt(input.receipt, body, expected, async (kid) => {
      if (kid !== key.kid) throw new Error(`this service signs with ${key.kid} only`);
      return key.publicJwk;
    });
    return verdict.valid ? { valid: true, receipt: { ...verdict.receipt } } : verdict;
  },
});
