import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import pino from "pino";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { encodeSIWxHeader } from "@x402/extensions/sign-in-with-x";
import { privateKeyToAccount } from "viem/accounts";
import { definePlugin } from "../../../core/endpoint.ts";
import { devnetSigningKey } from "../../../core/receipts/key.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { createSignIn } from "../../../core/sign-in/sign-in.ts";
import { freshAccount, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { probePlugin } from "../../helpers/probe-plugin.ts";
import { startRedis, type RedisServer } from "../../helpers/redis.ts";
import { signChallenge, signInHeaders, signInTo, type SignInSigner } from "../../helpers/sign-in.ts";
import { writesPlugin } from "../../helpers/writes-plugin.ts";
import myCredits from "../../../plugins/state/my-credits.ts";

// A paid call whose change could not be saved gives its price back as a credit code: the code is listed to the
// wallet that paid, signed in, on any instance sharing the store; nobody else reads a byte of it.
const base = "http://127.0.0.1:4021";
const path = "/v1/state/credits";
let devnet: Devnet;
let redis: RedisServer;
const stores: RedisStore[] = [];
let one: Awaited<ReturnType<typeof startPaidService>>;
let two: Awaited<ReturnType<typeof startPaidService>>;

before(async () => {
  [devnet, redis] = await Promise.all([startDevnet(), startRedis()]);
  const start = async () => {
    const store = await createRedisStore(redis.url, pino({ level: "silent" }));
    stores.push(store);
    const state = definePlugin({ family: "state", endpoints: [myCredits] });
    return startPaidService(devnet, { plugins: [probePlugin, writesPlugin, state], store });
  };
  one = await start();
  two = await start();
});
after(async () => {
  await one?.close();
  await two?.close();
  await Promise.all(stores.map((s) => s.close()));
  await redis?.stop();
  await devnet?.stop();
});

type Service = typeof one;
const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
const get = (service: Service, signIn?: string) =>
  service.fetch(base + path, signIn ? { headers: signInHeaders(signIn) } : undefined);
const signIn = (service: Service, signer: SignInSigner) => signInTo((p) => service.fetch(base + p), path, signer);
const read = async (service: Service, signer: SignInSigner) => {
  const res = await get(service, (await signIn(service, signer)).header);
  assert.equal(res.status, 200);
  return (await res.json()).data.credits as { code: string; balance: string; reason: string; expiresAt: string }[];
};

/** A paid half-write whose second write fails: 503, its price credited to the code the body names. */
async function creditedCall(key: string): Promise<string> {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer() });
  client.setSpendControls(false);
  const res = await wrapFetchWithPayment(one.fetch, client)(`${base}/v1/half-write?key=${key}&effect=fails`);
  const body = await res.json();
  assert.equal(res.status, 503, JSON.stringify(body));
  return body.error.details.creditCode;
}

let codes: string[] = [];

test("state/credits: a wallet issued 2 codes by failed paid calls on one instance reads exactly those 2 on the other, balances after one is spent", async () => {
  assert.deepEqual(await read(two, payer()), [], "no code before");
  codes = [await creditedCall("first"), await creditedCall("second")];
  const listed = await read(two, payer());
  assert.deepEqual(
    listed.map((c) => [c.code, c.balance, c.reason]),
    [
      [codes[1], "1000", "undelivered half-write"],
      [codes[0], "1000", "undelivered half-write"],
    ],
  );
  assert.ok(Date.parse(listed[0].expiresAt) > Date.now() + 300 * 24 * 3600 * 1000, "lives as long as the code");

  const spent = await one.fetch(`${base}/v1/probe?echo=spend`, { headers: { "x-credit-code": codes[0] } });
  assert.equal(spent.status, 200);
  assert.deepEqual(
    (await read(two, payer())).map((c) => [c.code, c.balance]),
    [
      [codes[1], "1000"],
      [codes[0], "0"],
    ],
  );
});

test("state/credits: another wallet, another's signature, a replayed or an expired sign-in: 0 codes, 401s carry no byte of them", async () => {
  assert.equal(codes.length, 2, "runs after the codes were issued");
  const noCodes = (text: string) =>
    assert.ok(
      codes.every((c) => !text.includes(c)),
      "no byte of the codes",
    );
  async function refused(res: Response, reason: RegExp) {
    const text = await res.text();
    assert.equal(res.status, 401, text);
    assert.match(JSON.parse(text).error.code, reason);
    noCodes(text);
  }

  const other = freshAccount();
  const theirs = await read(one, other);
  assert.deepEqual(theirs, [], "another wallet signed in as itself reads none");

  const { payload } = await signIn(one, other);
  await refused(await get(one, encodeSIWxHeader({ ...payload, address: payer().address })), /signature/);

  const { header } = await signIn(one, payer());
  const first = await get(one, header);
  assert.equal(first.status, 200);
  await refused(await get(two, header), /nonce/);

  const past = createSignIn({
    baseUrl: base,
    store: stores[0],
    networks: [devnet.network],
    evmVerifierOf: () => undefined,
    secret: createHash("sha256").update(`sign-in nonces ${devnetSigningKey}`).digest(),
    now: () => Date.now() - 600_000,
  }).challenge(path);
  await refused(await get(two, (await signChallenge(past, payer())).header), /too_old|expired/);

  const unsigned = await get(two);
  assert.equal(unsigned.status, 402);
  noCodes(await unsigned.text());
});
