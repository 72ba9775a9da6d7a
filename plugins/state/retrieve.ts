import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { keyInput, liveValue, liveValueOutput } from "./_kv.ts";
import { walletOf } from "./_wallet.ts";

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
  output: liveValueOutput,
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
  handler: ({ input, payer, store, now }) => liveValue(store, walletOf(payer), input.key, now()),
});
