import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { newChallenge } from "./_pow.ts";
import { arcadeSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "arcade/challenge",
  method: "GET",
  path: "/arcade/api/challenge",
  price: "$0",
  summary: "An ALTCHA proof-of-work challenge; its solution buys one free play on /arcade/api/play",
  raw: true,
  input: v.object({}),
  output: v.object({
    parameters: v.record(v.string(), v.unknown()),
    signature: v.optional(v.string()),
  }),
  example: {
    input: {},
    output: {
      parameters: {
        algorithm: "PBKDF2/SHA-256",
        nonce: "5f0c3d2a9b8e7f61",
        salt: "a1b2c3d4e5f60718",
        cost: 1000,
        keyLength: 32,
        keyPrefix: "4c6f",
        expiresAt: 1795420800,
      },
      signature: "9a7c0d...",
    },
  },
  settings: arcadeSettings,
  handler: async ({ store, settings }) =>
    newChallenge(store, settings.powWork) as unknown as Promise<{
      parameters: Record<string, unknown>;
      signature?: string;
    }>,
});
