import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { keyInput, storedFields, type StoredValue } from "./_kv.ts";
import { signInNote, signedInWallet, stateKeys } from "./_wallet.ts";

export default defineEndpoint({
  name: "state/value",
  method: "GET",
  price: "$0",
  signIn: true,
  summary: "Read a value your wallet stored with /v1/store (signed in, free)",
  description: `${signInNote} The same answer as /v1/retrieve, which the wallet pays for instead of signing in.`,
  input: v.object({ key: keyInput }),
  output: v.object({ ...storedFields, value: v.string() }),
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
    },
  },
  async handler({ input, wallet, store, now }) {
    const record = await store.get<StoredValue>(stateKeys.value(signedInWallet(wallet), input.key));
    if (!record || Date.parse(record.expiresAt) <= now().getTime())
      throw notFound(`No live value under ${input.key} for this wallet`, { key: input.key });
    return { key: input.key, ...record, bytes: Buffer.byteLength(record.value) };
  },
});
