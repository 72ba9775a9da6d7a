import { pbkdf2Sync, randomBytes, randomInt, randomUUID } from "node:crypto";
import { createChallenge, verifySolution, type Challenge, type Payload } from "altcha-lib";
import type { Store } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";

const ALGORITHM = "PBKDF2/SHA-256";
const COST = 1_000;
const CHALLENGE_TTL_MS = 10 * 60_000;
const secretKey = "arcade:pow-secret";
const usedKey = (signature: string) => `arcade:pow-used:${signature}`;

/**
 * One PBKDF2 of 1,000 rounds, well under a millisecond, done on the event loop: the async form queues on
 * Node's small threadpool, which other calls' work (zlib, files, key derivations) can hold for seconds.
 */
const deriveKey = async (parameters: { cost: number; keyLength?: number }, salt: Uint8Array, password: Uint8Array) => ({
  parameters: {},
  derivedKey: pbkdf2Sync(password, salt, parameters.cost, parameters.keyLength ?? 32, "sha256"),
});

/** The key that signs challenges, made once and shared by every instance through the store. */
async function secretOf(store: Store): Promise<string> {
  await store.claim(secretKey, randomBytes(32).toString("hex"));
  return (await store.get<string>(secretKey))!;
}

/** A fresh challenge for the altcha widget (or any ALTCHA solver), good for one free play within 10 minutes. */
export async function newChallenge(store: Store, work: number): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    counter: randomInt(Math.ceil(work / 2), work + 1),
    deriveKey,
    // altcha-lib judges expiry by the wall clock.
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
    hmacSignatureSecret: await secretOf(store),
  });
}

const refused = (why: string) =>
  new ServiceError(
    403,
    "proof_of_work_required",
    `Free plays need a solved proof of work (${why}): GET /arcade/api/challenge, solve it (the /arcade page's altcha widget does), send the payload as altcha. Agents pay per play on POST /v1/arcade/play`,
  );

/**
 * Checks a solved challenge (the widget's base64 payload) and reserves it for this play: it buys one play however
 * many requests carry it, and is given back if the play fails.
 */
export async function spendProof(
  ctx: { store: Store; reserve(key: string, value: unknown, ttlMs: number): Promise<boolean> },
  payloadText: string | undefined,
): Promise<void> {
  if (!payloadText) throw refused("none was sent");
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(payloadText, "base64").toString("utf8"));
  } catch {
    throw refused("the payload is not base64 JSON");
  }
  const signature = payload?.challenge?.signature;
  if (typeof signature !== "string" || !payload.solution)
    throw refused("the payload has no signed challenge and solution");
  const result = await verifySolution({
    challenge: payload.challenge,
    solution: payload.solution,
    deriveKey,
    hmacSignatureSecret: await secretOf(ctx.store),
  }).catch(() => undefined);
  if (!result?.verified)
    throw refused(result?.expired ? "the challenge expired" : "the solution is wrong or the challenge is not ours");
  if (!(await ctx.reserve(usedKey(signature), randomUUID(), CHALLENGE_TTL_MS * 2)))
    throw refused("this one was spent already");
}
