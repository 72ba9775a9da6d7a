import * as v from "valibot";

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
