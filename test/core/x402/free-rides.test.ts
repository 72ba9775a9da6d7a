import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import * as v from "valibot";
import { createWalletClient, decodeFunctionData, http, parseAbi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { devnetChain } from "../../../core/x402/devnet/index.ts";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import { chainReader, freshAccount, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { probePlugin } from "../../helpers/probe-plugin.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { challengeOf, newPaymentId, signAuthorization, toHeader, v2Header } from "../../helpers/sign.ts";

/**
 * As an attacker would try it: every way the rail could give value without money, each asserting counts
 * (handler runs, effects applied, on-chain transfers, credits funded), on a devnet with the real gate.
 */
type Paid = Awaited<ReturnType<typeof startPaidService>>;
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const price = 1000n;

interface Hold {
  started: Promise<void>;
  onStart(): void;
  release(): void;
  released: Promise<void>;
}
const holds = new Map<string, Hold>();
function holdCalls(key: string): Hold {
  let onStart!: () => void;
  let release!: () => void;
  const started = new Promise<void>((r) => (onStart = r));
  const released = new Promise<void>((r) => (release = r));
  const hold = { started, onStart, release, released };
  holds.set(key, hold);
  return hold;
}
const runs = new Map<string, number>();
const effectTries = new Map<string, number>();

/** Writes one count per applied effect under `ride:<key>`; a held key waits in its handler until released. */
const write = defineEndpoint({
  name: "ride-write",
  method: "GET",
  price: "$0.001",
  summary: "Writes after payment",
  input: v.object({ key: v.pipe(v.string(), v.maxLength(64)), effect: v.optional(v.picklist(["ok", "fails"]), "ok") }),
  output: v.object({ key: v.string() }),
  example: { input: { key: "k" }, output: { key: "k" } },
  async handler({ input, store, afterPayment }) {
    runs.set(input.key, (runs.get(input.key) ?? 0) + 1);
    const hold = holds.get(input.key);
    if (hold) {
      hold.onStart();
      await hold.released;
    }
    afterPayment(async () => {
      effectTries.set(input.key, (effectTries.get(input.key) ?? 0) + 1);
      if (input.effect === "fails") throw new Error("the store refused the write");
      await store.increment(`ride:${input.key}`);
    });
    return { key: input.key };
  },
});
const ridePlugin = definePlugin({ family: "ride", endpoints: [write] });

let settleTimesOut = false;
const flaky = (real: Facilitator): Facilitator => ({
  verify: (payload, requirements) => real.verify(payload, requirements),
  async settle(payload, requirements) {
    const settled = await real.settle(payload, requirements);
    if (settleTimesOut)
      throw Object.assign(new Error("facilitator request timed out"), { name: "FacilitatorTimeoutError" });
    return settled;
  },
});

let devnet: Devnet;
let chain: ReturnType<typeof chainReader>;
let service: Paid;

before(async () => {
  devnet = await startDevnet();
  chain = chainReader(devnet);
  service = await startPaidService(devnet, { plugins: [probePlugin, ridePlugin], facilitator: flaky });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
const payTo = () => devnet.accounts.payTo.address;
const written = async (s: Paid, key: string) => (await s.store.get<number>(`ride:${key}`)) ?? 0;
/** Transfers to payTo in the blocks after `afterBlock`. */
async function transfersTo(afterBlock: bigint) {
  const latest = await chain.client.getBlockNumber({ cacheTime: 0 });
  if (latest <= afterBlock) return 0;
  const event = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"])[0];
  return (
    await chain.client.getLogs({
      address: devnet.usdc.address,
      event,
      args: { to: payTo() },
      fromBlock: afterBlock + 1n,
      toBlock: latest,
    })
  ).length;
}
const pay = (s: Paid, path: string, header: string, init: RequestInit = {}) =>
  s.fetch(url(path), { ...init, headers: { "payment-signature": header } });

async function fund(amount: bigint) {
  const account = freshAccount();
  const holder = createWalletClient({
    chain: devnetChain(devnet.rpcUrl),
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(devnet.accounts.others[0].privateKey),
  });
  const hash = await holder.writeContract({
    address: devnet.usdc.address,
    abi: parseAbi(["function transfer(address to, uint256 value) returns (bool)"]),
    functionName: "transfer",
    args: [account.address, amount],
  });
  await chain.client.waitForTransactionReceipt({ hash });
  return account;
}

/** What anyone can read off the chain once a payment settled: its authorization and signature, from the calldata. */
async function rebuiltFromChain(transaction: Hex) {
  const tx = await chain.client.getTransaction({ hash: transaction });
  const { args } = decodeFunctionData({
    abi: parseAbi([
      "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
    ]),
    data: tx.input,
  });
  const [from, to, value, validAfter, validBefore, nonce, vByte, r, s] = args;
  const authorization = {
    from,
    to,
    value: String(value),
    validAfter: String(validAfter),
    validBefore: String(validBefore),
    nonce,
  };
  return { authorization, signature: `${r}${s.slice(2)}${vByte.toString(16).padStart(2, "0")}` };
}
const receiptOf = (res: Response) =>
  JSON.parse(Buffer.from(res.headers.get("payment-response")!, "base64").toString("utf8"));
const headerFrom = (required: any, payload: object, paymentId?: string) =>
  toHeader({
    x402Version: 2,
    resource: required.resource,
    accepted: required.accepts[0],
    payload,
    ...(paymentId ? { extensions: { "payment-identifier": { info: { required: false, id: paymentId } } } } : {}),
  });

test("hang-ups: four callers who hang up mid-call and one who waits, all with one authorization: one handler run, one write, one transfer", async () => {
  const path = "/v1/ride-write?key=hangup";
  const required = await challengeOf(service.fetch, url(path));
  const { header } = await v2Header(payer(), required, {}, undefined, newPaymentId());
  const fromBlock = await chain.client.getBlockNumber({ cacheTime: 0 });
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const hold = holdCalls("hangup");
    const hangUp = new AbortController();
    const answer = pay(service, path, header, { signal: hangUp.signal });
    // The first copy reaches its handler; later copies find the authorization taken and never do.
    if (i === 0) {
      await hold.started;
      hangUp.abort();
      hold.release();
    } else {
      hangUp.abort();
      hold.release();
    }
    statuses.push((await answer).status);
  }
  holds.delete("hangup");
  const waited = await pay(service, path, header);
  statuses.push(waited.status);
  assert.equal(runs.get("hangup"), 1, `handler runs (${statuses})`);
  assert.equal(await written(service, "hangup"), 1, "writes");
  assert.equal(await transfersTo(fromBlock), 1, "transfers");
  assert.equal(statuses[0], 200, "the hung-up call ran to its end and settled");
  assert.equal(waited.headers.get("x-payment-replayed"), "true", "its payer's retry replays the answer");
});

test("a failed handler spends the authorization without charging it: the same payment is never run again", async () => {
  const required = await challengeOf(service.fetch, url("/v1/probe?outcome=crash"));
  const { header } = await v2Header(payer(), required, {}, undefined, newPaymentId());
  const fromBlock = await chain.client.getBlockNumber({ cacheTime: 0 });
  assert.equal((await pay(service, "/v1/probe?outcome=crash", header)).status, 500);
  const again = await pay(service, "/v1/probe?outcome=crash", header);
  assert.equal(again.status, 409);
  assert.equal((await again.json()).error.code, "payment_already_used");
  assert.equal(await transfersTo(fromBlock), 0);
});

test("8 concurrent calls from a wallet funded for one: 1 write, 1 transfer, 7 answers withheld and not charged", async () => {
  const wallet = await fund(price);
  const fromBlock = await chain.client.getBlockNumber({ cacheTime: 0 });
  const headers = await Promise.all(
    Array.from({ length: 8 }, async (_, i) => {
      const required = await challengeOf(service.fetch, url(`/v1/ride-write?key=race-${i}`));
      return (await v2Header(wallet, required)).header;
    }),
  );
  const answers = await Promise.all(headers.map((header, i) => pay(service, `/v1/ride-write?key=race-${i}`, header)));
  const statuses = answers.map((r) => r.status);
  const writes = (await Promise.all(headers.map((_, i) => written(service, `race-${i}`)))).reduce((a, b) => a + b, 0);
  assert.equal(statuses.filter((s) => s === 200).length, 1, String(statuses));
  assert.equal(statuses.filter((s) => s === 402).length, 7, String(statuses));
  assert.equal(writes, 1, "keys written");
  assert.equal(await transfersTo(fromBlock), 1, "transfers");
  assert.equal(await chain.balance(wallet.address), 0n);
});

test("an effect that still fails after the money moved is retried, then its price is credited to the payer", async () => {
  const path = "/v1/ride-write?key=lost-effect&effect=fails";
  const required = await challengeOf(service.fetch, url(path));
  const { header } = await v2Header(payer(), required);
  const fromBlock = await chain.client.getBlockNumber({ cacheTime: 0 });
  const res = await pay(service, path, header);
  assert.equal(res.status, 503);
  const body = await res.json();
  assert.equal(body.error.code, "effect_failed");
  assert.equal(effectTries.get("lost-effect"), 3, "tried three times");
  assert.equal(await transfersTo(fromBlock), 1, "the money moved");
  assert.equal(await service.credits.balance(body.error.details.creditCode), price, "the price is credited");
  assert.ok(res.headers.get("payment-response"), "the receipt still says what moved");
});

test("a settled payment rebuilt from the chain by another wallet gets a 409 with the receipt, never the payer's answer", async () => {
  const path = "/v1/probe?echo=only-for-the-payer";
  const required = await challengeOf(service.fetch, url(path));
  const paymentId = newPaymentId();
  const { header } = await v2Header(payer(), required, {}, undefined, paymentId);
  const paid = await pay(service, path, header);
  assert.equal(paid.status, 200);
  const { transaction } = receiptOf(paid);

  const rebuilt = await rebuiltFromChain(transaction);
  for (const stolen of [headerFrom(required, rebuilt), headerFrom(required, rebuilt, newPaymentId())]) {
    const res = await pay(service, path, stolen);
    const text = await res.text();
    assert.equal(res.status, 409, text);
    assert.doesNotMatch(text, /only-for-the-payer/);
    assert.equal(JSON.parse(text).error.details.transaction, transaction);
  }
  const own = await pay(service, path, headerFrom(required, rebuilt, paymentId));
  assert.equal(own.status, 200, "the payer's own identifier replays it");
  assert.equal((await own.json()).data.echo, "only-for-the-payer");
});

test("a junk contract-wallet signature is refused before any ledger look-up or per-payer count", async () => {
  const path = "/v1/probe?echo=junk";
  const required = await challengeOf(service.fetch, url(path));
  const { payload } = await v2Header(payer(), required);
  const lookups: string[] = [];
  const get = service.store.get.bind(service.store);
  service.store.get = ((key: string) => (lookups.push(key), get(key))) as typeof service.store.get;
  const proofs = service.contractProofs.count;
  try {
    const res = await pay(service, path, headerFrom(required, { ...payload, signature: `0x${"ab".repeat(200)}` }));
    assert.equal(res.status, 402);
    assert.match((await res.json()).reason, /signature/);
  } finally {
    service.store.get = get;
  }
  assert.deepEqual(
    lookups.filter((k) => k.startsWith("x402:")),
    [],
  );
  assert.equal(service.contractProofs.count - proofs, 1, "one on-chain proof");
});

test("a pending settlement's credit code goes only to a retry with the payer's payment identifier", async () => {
  const path = "/v1/probe?echo=pending";
  const required = await challengeOf(service.fetch, url(path));
  const paymentId = newPaymentId();
  const { header, payload } = await v2Header(payer(), required, {}, undefined, paymentId);
  settleTimesOut = true;
  const first = await pay(service, path, header).finally(() => (settleTimesOut = false));
  assert.equal(first.status, 402);
  const { creditCode, reason } = await first.json();
  assert.equal(reason, "settlement_pending");
  assert.match(creditCode, /^cr_/);

  for (const stranger of [headerFrom(required, payload), headerFrom(required, payload, newPaymentId())]) {
    const res = await pay(service, path, stranger);
    const text = await res.text();
    assert.equal(res.status, 409);
    assert.doesNotMatch(text, /cr_/);
  }
  const retry = await pay(service, path, header);
  assert.equal((await retry.json()).creditCode, creditCode);
});

test("forged payments in a victim's name cost one on-chain proof each and never touch the victim's per-payer budget", async () => {
  const limited = await startPaidService(devnet, { plugins: [probePlugin], payerLimitPerMinute: 5 });
  try {
    const path = "/v1/probe?echo=victim";
    const required = await challengeOf(limited.fetch, url(path));
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const { payload } = await v2Header(payer(), required);
      statuses.push(
        (await pay(limited, path, headerFrom(required, { ...payload, signature: `0x${"5a".repeat(97)}` }))).status,
      );
    }
    assert.deepEqual([...new Set(statuses)], [402]);
    assert.equal(limited.contractProofs.count, 10);
    const { header } = await v2Header(payer(), required);
    assert.equal((await pay(limited, path, header)).status, 200, "the victim's own payment is served");
  } finally {
    await limited.close();
  }
});

test("an authorization valid for 30 years is refused: 402 with the reason, nothing claimed", async () => {
  const path = "/v1/probe?echo=forever";
  const required = await challengeOf(service.fetch, url(path));
  const thirtyYears = String(Math.floor(Date.now() / 1000) + 30 * 365 * 24 * 3600);
  const { header } = await v2Header(payer(), required, { validBefore: thirtyYears });
  const claims = (await service.store.keys("x402:claim:")).length;
  const res = await pay(service, path, header);
  assert.equal(res.status, 402);
  const body = await res.json();
  assert.equal(body.reason, "invalid_exact_evm_payload_authorization_valid_before");
  assert.match(body.error, /maxTimeoutSeconds/);
  assert.equal((await service.store.keys("x402:claim:")).length, claims);
});

test("a sweep of malformed signatures over v1 and v2: every one a 402 naming the signature, never a 5xx", async () => {
  const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const word = (x: bigint) => x.toString(16).padStart(64, "0");
  const path = "/v1/probe?echo=sweep";
  const required = await challengeOf(service.fetch, url(path));
  const good = (await signAuthorization(payer(), required.accepts[0])).signature.slice(2);
  const [r, s] = [good.slice(0, 64), good.slice(64, 128)];
  const signatures = [
    `0x${word(0n)}${s}1b`,
    `0x${r}${word(0n)}1b`,
    `0x${word(n)}${s}1b`,
    `0x${word(2n ** 256n - 1n)}${s}1b`,
    `0x${r}${word(n - 1n)}1b`,
    `0x${r}${s}00`,
    `0x${r}${s}02`,
    `0x${r}${s}1d`,
    `0x${r}${s}ff`,
    `0x${r}${s}`,
    `0x${r}${s}1b00`,
    "0x",
    "0x1",
    `0x${"00".repeat(65)}`,
    `0x${"ff".repeat(65)}`,
    `0x${"ab".repeat(66)}`,
    `0x${"ff".repeat(300)}`,
    `0x${"00".repeat(32)}${"6492".repeat(16)}`,
  ];
  const v1 = (await challengeOf(service.fetch, url(path)), await (await service.fetch(url(path))).json()).accepts[0];
  const statuses: number[] = [];
  for (const signature of signatures) {
    const { authorization } = await signAuthorization(payer(), required.accepts[0]);
    const v2 = await pay(service, path, headerFrom(required, { authorization, signature }));
    const v1Answer = await service.fetch(url(path), {
      headers: {
        "x-payment": toHeader({
          x402Version: 1,
          scheme: "exact",
          network: v1.network,
          payload: { authorization, signature },
        }),
      },
    });
    for (const res of [v2, v1Answer]) {
      statuses.push(res.status);
      const body = await res.json();
      assert.equal(res.status, 402, `${signature.slice(0, 20)}…: ${JSON.stringify(body)}`);
      assert.match(body.reason, /signature|payload/, signature);
    }
  }
  assert.equal(statuses.filter((s) => s >= 500).length, 0);
});

test("two instances on one Redis: copies of one authorization alternate between them, half hung up: one handler run, one write, one transfer", {
  skip: redisMissing,
}, async () => {
  let redis: RedisServer | undefined;
  const stores: RedisStore[] = [];
  const instances: Paid[] = [];
  try {
    redis = await startRedis();
    for (let i = 0; i < 2; i++) {
      const store = await createRedisStore(redis.url, pino({ level: "silent" }));
      stores.push(store);
      instances.push(await startPaidService(devnet, { plugins: [ridePlugin], store }));
    }
    const path = "/v1/ride-write?key=two-instances";
    const required = await challengeOf(instances[0].fetch, url(path));
    const { header } = await v2Header(payer(), required, {}, undefined, newPaymentId());
    const fromBlock = await chain.client.getBlockNumber({ cacheTime: 0 });
    const hold = holdCalls("two-instances");
    const answers = Array.from({ length: 10 }, (_, i) => {
      const hangUp = new AbortController();
      if (i % 2) hangUp.abort();
      return pay(instances[i % 2], path, header, { signal: hangUp.signal });
    });
    await hold.started;
    hold.release();
    const statuses = (await Promise.all(answers)).map((r) => r.status);
    holds.delete("two-instances");
    assert.equal(runs.get("two-instances"), 1, String(statuses));
    assert.equal(statuses.filter((s) => s === 200).length, 1, String(statuses));
    assert.equal(await written(instances[0], "two-instances"), 1);
    assert.equal(await transfersTo(fromBlock), 1);
  } finally {
    for (const instance of instances) await instance.close();
    for (const store of stores) await store.close();
    await redis?.stop();
  }
});
