import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { encodeSIWxHeader } from "@x402/extensions/sign-in-with-x";
import { keccak256, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { definePlugin } from "../../../core/endpoint.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { batchTerms, channelPayer } from "../../helpers/channels.ts";
import { freshAccount, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { probePlugin } from "../../helpers/probe-plugin.ts";
import { startRedis, type RedisServer } from "../../helpers/redis.ts";
import { signInHeaders, signInTo, type SignInSigner } from "../../helpers/sign-in.ts";
import myChannels from "../../../plugins/state/my-channels.ts";

// A wallet's voucher channels, deposited through one instance, read signed in on another sharing the redis-server
// (keys and channel store): their balance, charge and claim as the channel store holds them; nobody else's.
const base = "http://127.0.0.1:4021";
const path = "/v1/state/channels";
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
    const state = definePlugin({ family: "state", endpoints: [myChannels] });
    return startPaidService(devnet, { plugins: [probePlugin, state], store, batch: { storeUrl: redis.url } });
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
type Listed = { channelId: string; balance: string; charged: string; claimed: string; withdrawal: unknown };
const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
const get = (service: Service, signIn?: string) =>
  service.fetch(base + path, signIn ? { headers: signInHeaders(signIn) } : undefined);
const signIn = (service: Service, signer: SignInSigner) => signInTo((p) => service.fetch(base + p), path, signer);
async function read(service: Service, signer: SignInSigner): Promise<Listed[]> {
  const res = await get(service, (await signIn(service, signer)).header);
  assert.equal(res.status, 200);
  return (await res.json()).data.channels;
}
const byId = (channels: Listed[]) => [...channels].sort((a, b) => a.channelId.localeCompare(b.channelId));

let ids: string[] = [];

test("state/channels: a wallet with 2 channels deposited on one instance reads exactly those 2 on the other: balance, charged, claimed", async () => {
  assert.deepEqual(await read(two, payer()), [], "no channel before");
  const terms = await batchTerms(one, "/v1/probe");
  const channels = ["first", "second"].map((name) => channelPayer(devnet, payer(), { salt: keccak256(toHex(name)) }));
  ids = channels.map((c) => c.channelIdOf(terms).toLowerCase());
  // The first: a deposit of 50_000 with its voucher, then two vouchers; the second: a deposit of 20_000 with one.
  assert.equal((await channels[0].pay(one, "/v1/probe", 50_000n)).status, 200);
  for (let i = 0; i < 2; i++) assert.equal((await channels[0].pay(one)).status, 200);
  assert.equal((await channels[1].pay(one, "/v1/probe", 20_000n)).status, 200);

  const listed = byId(await read(two, payer()));
  const expected = byId([
    { channelId: ids[0], balance: "50000", charged: "3000", claimed: "0", withdrawal: null },
    { channelId: ids[1], balance: "20000", charged: "1000", claimed: "0", withdrawal: null },
  ] as Listed[]);
  assert.deepEqual(
    listed.map(({ channelId, balance, charged, claimed, withdrawal }) => ({
      channelId,
      balance,
      charged,
      claimed,
      withdrawal,
    })),
    expected,
  );

  await one.batch!.claimAndSettle();
  assert.deepEqual(
    byId(await read(two, payer())).map((c) => [c.channelId, c.charged, c.claimed]),
    byId(expected).map((c) => [c.channelId, c.charged, c.charged]),
  );
});

test("state/channels: another wallet, another's signature, a replayed sign-in: 0 channels, 401s carry no byte of them", async () => {
  assert.equal(ids.length, 2, "runs after the channels were opened");
  const noChannels = (text: string) =>
    assert.ok(
      ids.every((id) => !text.toLowerCase().includes(id.slice(2))),
      "no byte of the channels",
    );
  async function refused(res: Response, reason: RegExp) {
    const text = await res.text();
    assert.equal(res.status, 401, text);
    assert.match(JSON.parse(text).error.code, reason);
    noChannels(text);
  }
  const other = freshAccount();
  assert.deepEqual(await read(one, other), [], "another wallet signed in as itself reads none");
  const { payload } = await signIn(one, other);
  await refused(await get(one, encodeSIWxHeader({ ...payload, address: payer().address })), /signature/);
  const { header } = await signIn(two, payer());
  assert.equal((await get(two, header)).status, 200);
  await refused(await get(one, header), /nonce/);
  noChannels(await (await get(one)).text());
});
