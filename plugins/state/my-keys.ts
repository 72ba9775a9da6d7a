import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { storedFields, type StoredValue } from "./_kv.ts";
import { signInNote, signedInWallet, stateKeys } from "./_wallet.ts";

const pageSize = 100;

export default defineEndpoint({
  name: "state/keys",
  method: "GET",
  price: "$0",
  signIn: true,
  summary: "List the keys your wallet stored with /v1/store (signed in, free)",
  description: `${signInNote} Keys in name order, ${pageSize} a page; \`after\` is the last key of the previous page.`,
  input: v.object({
    after: v.optional(v.pipe(v.string(), v.maxLength(128), v.description("List keys after this one (paging)"))),
  }),
  output: v.object({
    keys: v.array(v.object(storedFields)),
    next: v.pipe(v.nullable(v.string()), v.description("`after` for the next page; null on the last")),
  }),
  example: {
    input: {},
    output: {
      keys: [
        {
          key: "agent/last-run",
          bytes: 10,
          version: 1,
          createdAt: "2026-11-23T10:00:00.000Z",
          updatedAt: "2026-11-23T10:00:00.000Z",
          expiresAt: "2026-11-23T11:00:00.000Z",
        },
      ],
      next: null,
    },
  },
  async handler({ input, wallet, store, now }) {
    const prefix = stateKeys.value(signedInWallet(wallet), "");
    const names = (await store.keys(prefix))
      .map((k) => k.slice(prefix.length))
      .filter((k) => input.after === undefined || k > input.after)
      .sort();
    const keys = [];
    for (const key of names) {
      if (keys.length === pageSize) break;
      const record = await store.get<StoredValue>(prefix + key);
      if (!record || Date.parse(record.expiresAt) <= now().getTime()) continue;
      const { value, ...fields } = record;
      keys.push({ key, bytes: Buffer.byteLength(value), ...fields });
    }
    const last = keys.at(-1)?.key;
    return { keys, next: keys.length === pageSize && names.at(-1) !== last ? last! : null };
  },
});
