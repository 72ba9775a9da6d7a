import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import pino from "pino";
import { generateKeyPairSigner } from "@solana/kit";
import { SOLANA_DEVNET, encodeSIWxHeader } from "@x402/extensions/sign-in-with-x";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { createClosedGate } from "../../../core/payment/gate.ts";
import { x402Offers } from "../../../core/x402/offers.ts";
import { devnetSigningKey } from "../../../core/receipts/key.ts";
import { createSignIn } from "../../../core/sign-in/sign-in.ts";
import { startRedis, type RedisServer } from "../../helpers/redis.ts";
import { startTestService, testPaymentOption } from "../../helpers/service.ts";
import { challengeIn, signChallenge, signInHeaders, signInTo, type SignInSigner } from "../../helpers/sign-in.ts";
import storeEndpoint from "../../../plugins/state/store.ts";

const base = "http://127.0.0.1:4021";
const solanaOption = {
  ...testPaymentOption,
  network: SOLANA_DEVNET,
  asset: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
  payTo: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
  extra: {},
};
let redis: RedisServer;
const stores: RedisStore[] = [];
let one: Awaited<ReturnType<typeof startTestService>>;
let two: Awaited<ReturnType<typeof startTestService>>;
const wallet = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());
const secretKey = "plans/secret-of-wallet-a";
const secretValue = "the-value-only-wallet-a-may-read";

before(async () => {
  redis = await startRedis();
  const start = async () => {
    const store = await createRedisStore(redis.url, pino({ level: "silent" }));
    stores.push(store);
    return startTestService({
      plugins: ["state"],
      store,
      payments: createClosedGate(x402Offers([testPaymentOption, solanaOption], base)),
    });
  };
  [one, two] = await Promise.all([start(), start()]);
  const stored = await one.callAs(wallet.address, storeEndpoint, { key: secretKey, value: secretValue });
  assert.equal(stored.status, 200);
});
after(async () => {
  await Promise.all([one?.close(), two?.close()]);
  await Promise.all(stores.map((s) => s.close()));
  await redis?.stop();
});

type Service = typeof one;
const get = (service: Service, path: string, signIn?: string) =>
  service.request(path, signIn ? { headers: signInHeaders(signIn) } : undefined);
const challengeOf = async (service: Service, path: string) => challengeIn(await get(service, path));
const signIn = (service: Service, path: string, signer: SignInSigner, chainId?: string) =>
  signInTo((p) => get(service, p), path, signer, chainId);

/** 401 with not a byte of the wallet's data. */
async function refused(res: Response, reason: RegExp) {
  const text = await res.text();
  assert.equal(res.status, 401, text);
  assert.match(JSON.parse(text).error.code, reason);
  assert.ok(!text.includes(secretKey) && !text.includes(secretValue), "no byte of the wallet's data");
}

test("sign-in: a wallet signs in with the extension's client helper and reads its keys and a value, free", async () => {
  const keys = await get(one, "/v1/state/keys", (await signIn(one, "/v1/state/keys", wallet)).header);
  assert.equal(keys.status, 200);
  assert.deepEqual(
    (await keys.json()).data.keys.map((k: { key: string }) => k.key),
    [secretKey],
  );
  // On the other instance, with a sign-in it issued.
  const path = `/v1/state/value?key=${encodeURIComponent(secretKey)}`;
  const value = await get(two, path, (await signIn(two, path, wallet)).header);
  assert.equal(value.status, 200);
  assert.equal((await value.json()).data.value, secretValue);
  assert.equal(value.headers.get("payment-response"), null, "nothing was paid");
});

test("sign-in: another wallet, a replay on another instance, an expired, another origin's, another route's sign-in: 401, no data", async () => {
  const path = "/v1/state/keys";
  // Another wallet's signature over a message naming the wallet.
  const { payload: theirs } = await signIn(one, path, other);
  await refused(await get(one, path, encodeSIWxHeader({ ...theirs, address: wallet.address })), /signature/);
  // The other wallet signing in as itself sees its own (empty) namespace.
  const own = await get(one, path, (await signIn(one, path, other)).header);
  assert.deepEqual((await own.json()).data.keys, []);

  // The same sign-in twice, the second on the other instance.
  const { header } = await signIn(one, path, wallet);
  assert.equal((await get(one, path, header)).status, 200);
  await refused(await get(two, path, header), /nonce/);

  // A challenge issued ten minutes ago (the service's own secret, its clock moved back).
  const past = createSignIn({
    baseUrl: base,
    store: stores[0],
    networks: [testPaymentOption.network],
    evmVerifierOf: () => undefined,
    secret: createHash("sha256").update(`sign-in nonces ${devnetSigningKey}`).digest(),
    now: () => Date.now() - 600_000,
  }).challenge(path);
  const expired = await signChallenge(past, wallet);
  await refused(await get(one, path, expired.header), /too_old|expired/);

  // Signed for another origin.
  const challenge = await challengeOf(one, path);
  const evil = "https://evil.example";
  const elsewhere = await signChallenge(
    { ...challenge, info: { ...challenge.info, domain: "evil.example", uri: `${evil}${path}` } },
    wallet,
  );
  await refused(await get(one, path, elsewhere.header), /domain_mismatch/);

  // Signed in to another route.
  const { header: forValue } = await signIn(one, `/v1/state/value?key=${encodeURIComponent(secretKey)}`, wallet);
  await refused(await get(one, path, forValue), /uri_mismatch/);
});

test("sign-in: Solana wallets sign in; a Solana signature naming an EVM address is refused", async () => {
  const solana = await generateKeyPairSigner();
  const path = "/v1/state/keys";
  const ok = await get(one, path, (await signIn(one, path, solana, SOLANA_DEVNET)).header);
  assert.equal(ok.status, 200);
  assert.deepEqual((await ok.json()).data.keys, []);
  const { payload } = await signIn(one, path, solana, SOLANA_DEVNET);
  await refused(await get(one, path, encodeSIWxHeader({ ...payload, address: wallet.address })), /malformed|signature/);
});

test("sign-in: a paid route is not reachable with a sign-in, and a signed-in route takes no payment", async () => {
  const { header } = await signIn(one, "/v1/state/keys", wallet);
  const paid = await get(one, `/v1/retrieve?key=${encodeURIComponent(secretKey)}`, header);
  assert.equal(paid.status, 402, "retrieve still asks for a payment");
  assert.ok(!(await paid.text()).includes(secretValue));
  const credit = await one.request("/v1/state/keys", { headers: { "x-credit-code": "anything" } });
  assert.equal(credit.status, 402);
  const required = JSON.parse(Buffer.from(credit.headers.get("payment-required")!, "base64").toString());
  assert.deepEqual(required.accepts, []);
});
