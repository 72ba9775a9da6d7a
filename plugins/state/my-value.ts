import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { keyInput, liveValue, liveValueOutput } from "./_kv.ts";
import { signInNote, signedInWallet } from "./_wallet.ts";

export default defineEndpoint({
  name: "state/value",
  method: "GET",
  price: "$0",
  signIn: true,
  summary: "Read a value your wallet stored with /v1/store (signed in, free)",
  description: `${signInNote} The same answer as /v1/retrieve, which the wallet pays for instead of signing in.`,
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
  handler: ({ input, wallet, store, now }) => liveValue(store, signedInWallet(wallet), input.key, now()),
});
