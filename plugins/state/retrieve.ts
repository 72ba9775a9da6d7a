import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { keyInput, storedFields, type StoredValue } from "./_kv.ts";
import { stateKeys, walletOf } from "./_wallet.ts";

export default defineEndpoint({
  name: "retrieve",
  method: "GET",
  price: "$0.005",
  needsWallet: true,
  summary: "Read a value your wallet stored with /v1/store, with its version and expiry",
  description:
    "Reads from the namespace of the wallet that signed the payment only; a call paid with a credit code (no wallet) " +
    "is refused with 403 `wallet_required`. A key that was never stored by this wallet, or whose time-to-live has " +
    "passed, is a 404 and is not charged.",
  input: v.object({ key: keyInput }),
  output: v.object({
    ...storedFields,
    value: v.string(),
    ttlRemaining: v.pipe(v.number(), v.description("Whole seconds until the value expires")),
  }),
  example: {
    input: { key: "agent/last-run" },
    output: {
      key: "agent/last-run",
      value: '{"step":3}',
      bytes: 10,
      version: 1,
      createdAt: "2026-11-23T10:00:00.000Z",
      updatedAt: "2026-11-23T10:00:00.000Z",
      expiresAt: "2026-11-23T11:00:00.000Z",
      ttlRemaining: 3540,
    },
  },
  async handler({ input, payer, store, now }) {
    const record = await store.get<StoredValue>(stateKeys.value(walletOf(payer), input.key));
    const remainingMs = record ? Date.parse(record.expiresAt) - now().getTime() : 0;
    if (!record || remainingMs <= 0)
      throw notFound(`No live value under ${input.key} for this wallet (never stored, or expired)`, { key: input.key });
    return {
      key: input.key,
      ...record,
      bytes: Buffer.byteLength(record.value),
      ttlRemaining: Math.floor(remainingMs / 1000),
    };
  },
});
