import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { x402Client } from "@x402/fetch";
import type { PaymentPayload } from "@x402/core/types";
import { PERMIT2_ADDRESS, toClientEvmSigner, uptoPermit2WitnessTypes } from "@x402/evm";
import { UptoEvmScheme as UptoClient } from "@x402/evm/upto/client";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { encodeHeader } from "../../../core/x402/challenge.ts";
import { devnetChain } from "../../../core/x402/devnet/index.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { blockNow, transfersTo } from "../../helpers/rail.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { challengeOf, v2Header } from "../../helpers/sign.ts";

/**
 * One payment, many spellings: every field that enters a claim key (a nonce, an address) has one spelling there,
 * so the spellings of one signed payment are one claim, on one instance and across instances on one Redis.
 * Counted: handler runs, answers, transfers on the chain.
 */
type Service = Awaited<ReturnType<typeof startPaidService>>;
let devnet: Devnet;
let redis: RedisServer | undefined;
const stores: RedisStore[] = [];
/** One instance on its own store, then two sharing a redis-server. */
const setups: Service[][] = [];
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const batchPath = (outcomes: string[], salt: string) =>
  `/v1/batch?calls=${encodeURIComponent(JSON.stringify(outcomes.map((outcome) => ({ path: "/v1/probe", params: { outcome, echo: salt } }))))}`;

before(async () => {
  devnet = await startDevnet();
  setups.push([await startPaidService(devnet, { plugins: [probePlugin], upto: true })]);
  if (redisMissing) return;
  redis = await startRedis();
  const instances: Service[] = [];
  for (let i = 0; i < 2; i++) {
    const store = await createRedisStore(redis.url, pino({ level: "silent" }));
    stores.push(store);
    instances.push(await startPaidService(devnet, { plugins: [probePlugin], store, upto: true }));
  }
  setups.push(instances);
});
after(async () => {
  for (const s of setups.flat()) await s.close();
  for (const store of stores) await store.close();
  await redis?.stop();
  await devnet?.stop();
});

const reader = () => createPublicClient({ chain: devnetChain(devnet.rpcUrl), transport: http(devnet.rpcUrl) });

/**
 * A permit for `path` made by the real upto client (with its EIP-2612 permit while Permit2 has no allowance), signed
 * again over a short nonce: the client draws a 77-digit one, which leaves no room for leading zeros under 78 digits.
 */
async function uptoPermit(index: number, service: Service, path: string): Promise<PaymentPayload> {
  const account = privateKeyToAccount(devnet.accounts.others[index].privateKey);
  const client = new x402Client().register(devnet.network, new UptoClient(toClientEvmSigner(account, reader())));
  client.setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "upto"));
  const res = await service.fetch(url(path));
  await res.body?.cancel();
  const made = await client.createPaymentPayload(
    JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString()),
  );
  const inner = made.payload as { permit2Authorization: any; signature: string };
  const p = { ...inner.permit2Authorization, nonce: String(randomBytes(5).readUIntBE(0, 5)) };
  const signature = await account.signTypedData({
    domain: { name: "Permit2", chainId: devnet.chainId, verifyingContract: PERMIT2_ADDRESS },
    types: uptoPermit2WitnessTypes,
    primaryType: "PermitWitnessTransferFrom",
    message: {
      permitted: { token: p.permitted.token, amount: BigInt(p.permitted.amount) },
      spender: p.spender,
      nonce: BigInt(p.nonce),
      deadline: BigInt(p.deadline),
      witness: { to: p.witness.to, facilitator: p.witness.facilitator, validAfter: BigInt(p.witness.validAfter) },
    },
  });
  return { ...made, payload: { ...inner, permit2Authorization: p, signature } };
}

/** The i-th spelling of an address: as signed, lower-case, upper-case hex digits. */
const addressSpelling = (a: string, i: number) => [a, a.toLowerCase(), `0x${a.slice(2).toUpperCase()}`][i % 3];

/** The same permit with its nonce written with i leading zeros and its payer's address spelt another way. */
function permitSpelling(payload: PaymentPayload, i: number): PaymentPayload {
  const inner = payload.payload as { permit2Authorization: { nonce: string; from: string } };
  const p = inner.permit2Authorization;
  return {
    ...payload,
    payload: {
      ...inner,
      permit2Authorization: { ...p, nonce: `${"0".repeat(i)}${p.nonce}`, from: addressSpelling(p.from, i) },
    },
  };
}

/** Sends each header to the instances in turn, all at once. */
async function sendAll(instances: Service[], path: string, headers: string[]) {
  const answers = await Promise.all(
    headers.map((header, i) =>
      instances[i % instances.length].fetch(url(path), { headers: { "payment-signature": header } }),
    ),
  );
  return answers.map((r) => r.status).sort();
}

for (const n of [0, 1]) {
  const name = n === 0 ? "one instance" : "two instances on one Redis";
  const skip = n === 1 ? redisMissing : undefined;

  test(`canonical keys, ${name}: 8 spellings of one upto permit's nonce at once: 1 handler run, 1 answer, 1 transfer, 7 refused`, {
    skip,
  }, async () => {
    const instances = setups[n];
    const path = batchPath(["ok"], `permit-${n}`);
    const signed = await uptoPermit(n, instances[0], path);
    const [fromBlock, runs] = [await blockNow(devnet), handlerRuns.count];
    const statuses = await sendAll(
      instances,
      path,
      Array.from({ length: 8 }, (_, i) => encodeHeader(permitSpelling(signed, i))),
    );
    assert.deepEqual(
      { handlerRuns: handlerRuns.count - runs, statuses },
      { handlerRuns: 1, statuses: [200, ...Array(7).fill(409)] },
    );
    const payer = (signed.payload as { permit2Authorization: { from: `0x${string}` } }).permit2Authorization.from;
    assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, fromBlock + 1n, payer), {
      count: 1,
      value: 1000n,
    });
  });

  test(`canonical keys, ${name}: a permit spent by a failed call pays nothing as "0N"`, { skip }, async () => {
    const instances = setups[n];
    const failing = batchPath(["bad"], `spent-${n}`);
    const signed = await uptoPermit(2 + n, instances[0], failing);
    const [fromBlock, runs] = [await blockNow(devnet), handlerRuns.count];
    const first = await instances[0].fetch(url(failing), { headers: { "payment-signature": encodeHeader(signed) } });
    assert.equal(first.status, 502);
    // The same quote (one ok call instead of one failing one), the nonce respelt, on the other instance.
    const again = await instances[instances.length - 1].fetch(url(batchPath(["ok"], `spent-${n}`)), {
      headers: { "payment-signature": encodeHeader(permitSpelling(signed, 1)) },
    });
    assert.deepEqual({ status: again.status, handlerRuns: handlerRuns.count - runs }, { status: 409, handlerRuns: 1 });
    const payer = (signed.payload as { permit2Authorization: { from: `0x${string}` } }).permit2Authorization.from;
    assert.equal((await transfersTo(devnet, devnet.accounts.payTo.address, fromBlock + 1n, payer)).count, 0);
  });

  test(`canonical keys, ${name}: 8 spellings of one EIP-3009 authorization's nonce and payer at once: 1 handler run, 1 answer, 1 transfer`, {
    skip,
  }, async () => {
    const instances = setups[n];
    const path = `/v1/probe?echo=eip3009-${n}`;
    const account = privateKeyToAccount(devnet.accounts.others[4 + n].privateKey);
    const { header } = await v2Header(account, await challengeOf(instances[0].fetch, url(path)));
    const payment = JSON.parse(Buffer.from(header, "base64").toString());
    const { nonce, from } = payment.payload.authorization as { nonce: string; from: string };
    const hex = nonce.slice(2);
    // Eight spellings: the bits of 0..7 say which of the nonce's first three letters are capitals.
    const letters = [...hex].flatMap((c, j) => (/[a-f]/i.test(c) ? [j] : [])).slice(0, 3);
    const nonces = Array.from(
      { length: 8 },
      (_, k) =>
        `0x${[...hex.toLowerCase()].map((c, j) => (letters.some((at, bit) => at === j && k & (1 << bit)) ? c.toUpperCase() : c)).join("")}`,
    );
    assert.equal(new Set(nonces).size, 8);
    const headers = nonces.map((spelt, i) => {
      const authorization = { ...payment.payload.authorization, nonce: spelt, from: addressSpelling(from, i) };
      return Buffer.from(JSON.stringify({ ...payment, payload: { ...payment.payload, authorization } })).toString(
        "base64",
      );
    });
    const [fromBlock, runs] = [await blockNow(devnet), handlerRuns.count];
    const statuses = await sendAll(instances, path, headers);
    assert.deepEqual(
      { handlerRuns: handlerRuns.count - runs, statuses },
      { handlerRuns: 1, statuses: [200, ...Array(7).fill(409)] },
    );
    assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, fromBlock + 1n, account.address), {
      count: 1,
      value: 1000n,
    });
  });
}
