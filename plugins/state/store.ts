import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { keyInput, maxTtlSeconds, maxValueChars, storedFields, type StoredValue } from "./_kv.ts";
import { isoAfter, stateKeys, walletOf } from "./_wallet.ts";

export default defineEndpoint({
  name: "store",
  method: "GET",
  acceptsBody: true,
  price: "$0.01",
  needsWallet: true,
  summary: "Store a value under a key for your wallet, with a time-to-live (read it back with /v1/retrieve)",
  description:
    "Keys live in the namespace of the wallet that signed the payment: no other wallet can read or overwrite them, " +
    "and a call paid with a credit code (no wallet) is refused with 403 `wallet_required`, not charged. " +
    `The value is a string of up to ${maxValueChars} characters (store JSON as text); the time-to-live is 1 second ` +
    `to 30 days (${maxTtlSeconds} s), one day by default. Writing a live key overwrites it, replaces its expiry and ` +
    "raises its version. Large values can be sent as a JSON body to POST /v1/store.",
  input: v.object({
    key: keyInput,
    value: v.pipe(
      v.string(),
      v.maxLength(maxValueChars),
      v.description(`Value to keep, up to ${maxValueChars} characters`),
    ),
    ttl: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(maxTtlSeconds),
        v.description("Seconds to keep the value, 1 to 2592000 (30 days)"),
      ),
      86_400,
    ),
  }),
  output: v.object({
    ...storedFields,
    ttl: v.pipe(v.number(), v.description("Seconds the value is kept")),
    overwritten: v.boolean(),
  }),
  example: {
    input: { key: "agent/last-run", value: '{"step":3}', ttl: 3600 },
    output: {
      key: "agent/last-run",
      bytes: 10,
      version: 1,
      createdAt: "2026-11-23T10:00:00.000Z",
      updatedAt: "2026-11-23T10:00:00.000Z",
      expiresAt: "2026-11-23T11:00:00.000Z",
      ttl: 3600,
      overwritten: false,
    },
  },
  async handler(ctx) {
    const { input, payer, store, now } = ctx;
    const slot = stateKeys.value(walletOf(payer), input.key);
    const at = now();
    const previous = await store.get<StoredValue>(slot);
    const live = previous && Date.parse(previous.expiresAt) > at.getTime() ? previous : undefined;
    const record: StoredValue = {
      value: input.value,
      version: (live?.version ?? 0) + 1,
      createdAt: live?.createdAt ?? at.toISOString(),
      updatedAt: at.toISOString(),
      expiresAt: isoAfter(at, input.ttl * 1000),
    };
    // Written once paid for; setting the same record again is harmless when the effect is retried.
    ctx.afterPayment({ set: slot, value: record, ttlMs: input.ttl * 1000 });
    const { value, ...stamps } = record;
    return {
      key: input.key,
      bytes: Buffer.byteLength(value),
      ...stamps,
      ttl: input.ttl,
      overwritten: live !== undefined,
    };
  },
});
