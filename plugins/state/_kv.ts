import * as v from "valibot";
import type { Store } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { stateKeys } from "./_wallet.ts";

export const maxValueChars = 32_768;
export const maxTtlSeconds = 30 * 24 * 3600;

export const keyInput = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(128),
  v.regex(/^[A-Za-z0-9._:/-]+$/, "may only contain letters, digits and . _ : / -"),
  v.description("Key, 1-128 characters of letters, digits and . _ : / - (your wallet's own namespace)"),
);

/** What the store keeps per key. */
export interface StoredValue {
  value: string;
  version: number;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

export const storedFields = {
  key: v.string(),
  bytes: v.pipe(v.number(), v.description("UTF-8 size of the value")),
  version: v.pipe(v.number(), v.description("1 on the first write, plus one on every overwrite of a live key")),
  createdAt: v.string(),
  updatedAt: v.string(),
  expiresAt: v.string(),
};

export const liveValueOutput = v.object({
  ...storedFields,
  value: v.string(),
  ttlRemaining: v.pipe(v.number(), v.description("Whole seconds until the value expires")),
});

/** A wallet's live value under `key`, as /v1/retrieve and the signed-in read answer it; a 404 when there is none. */
export async function liveValue(store: Store, wallet: string, key: string, now: Date) {
  const record = await store.get<StoredValue>(stateKeys.value(wallet, key));
  const remainingMs = record ? Date.parse(record.expiresAt) - now.getTime() : 0;
  if (!record || remainingMs <= 0)
    throw notFound(`No live value under ${key} for this wallet (never stored, or expired)`, { key });
  return { key, ...record, bytes: Buffer.byteLength(record.value), ttlRemaining: Math.floor(remainingMs / 1000) };
}
