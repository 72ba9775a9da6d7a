import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import * as v from "valibot";
import { x402Client } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { UptoEvmScheme as UptoClient } from "@x402/evm/upto/client";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { generateKeyPairSigner } from "@solana/kit";
import { createPublicClient, createWalletClient, http, parseAbi, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { encodeHeader } from "../../../core/x402/challenge.ts";
import { devnetChain } from "../../../core/x402/devnet/index.ts";
import { freshMs } from "../../../core/payment/reservations.ts";
import {
  chainReader,
  freshAccount,
  startDevnet,
  startPaidService,
  startSolanaDevnet,
  type Devnet,
  type SolanaDevnet,
} from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { challengeOf, toHeader, v2Header } from "../../helpers/sign.ts";

/**
 * Our relayer pays the gas of every EVM settlement and our fee payer every Solana one, failed or not: a wallet
 * funded for one call that sends many at once (exact, upto or Solana) must get one answer and make us send one
 * transaction, and the others are refused before any work, free. Counted on the chains: the relayer's transactions
 * (sent, reverted), the fee payer's lamports, transfers; and the handler's runs. On one instance, and on two sharing
 * a redis-server.
 */
type Service = Awaited<ReturnType<typeof startPaidService>>;
let evm: Devnet;
let solana: SolanaDevnet;
let redis: RedisServer | undefined;
const stores: RedisStore[] = [];
/** One instance on its own store, then two sharing a redis-server. */
const setups: Service[][] = [];
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const price = 1000n;
const N = 8;

/** Waits in its handler until the test lets it go, so the payer can move its money during the call. */
const waiting = { entered: () => {}, leave: Promise.resolve() };
const waitPlugin = definePlugin({
  family: "probe-wait",
  endpoints: [
    defineEndpoint({
      name: "probe-all",
      method: "GET",
      price: "$0.002",
      paysAsUsed: true,
      summary: "Uses its whole price",
      input: v.object({ echo: v.optional(v.string(), "") }),
      output: v.object({ ok: v.boolean() }),
      example: { input: {}, output: { ok: true } },
      handler: (ctx) => {
        handlerRuns.count++;
        ctx.use(2000n);
        return { ok: true };
      },
    }),
    defineEndpoint({
      name: "probe-wait",
      method: "GET",
      price: "$0.001",
      summary: "Answers when the test says so",
      input: v.object({}),
      output: v.object({ ok: v.boolean() }),
      example: { input: {}, output: { ok: true } },
      timeoutMs: 60_000,
      async handler() {
        waiting.entered();
        await waiting.leave;
        return { ok: true };
      },
    }),
  ],
});

before(async () => {
  [evm, solana] = await Promise.all([startDevnet(), startSolanaDevnet()]);
  const plugins = [probePlugin, waitPlugin];
  setups.push([await startPaidService(evm, { plugins, solana, upto: true })]);
  if (redisMissing) return;
  redis = await startRedis();
  const instances: Service[] = [];
  for (let i = 0; i < 2; i++) {
    const store = await createRedisStore(redis.url, pino({ level: "silent" }));
    stores.push(store);
    instances.push(await startPaidService(evm, { plugins, solana, store, upto: true }));
  }
  setups.push(instances);
});
after(async () => {
  for (const s of setups.flat()) await s.close();
  for (const store of stores) await store.close();
  await redis?.stop();
  await Promise.all([evm?.stop(), solana?.stop()]);
});

const chain = () => createPublicClient({ chain: devnetChain(evm.rpcUrl), transport: http(evm.rpcUrl) });
const usdc = parseAbi(["function transfer(address to, uint256 value) returns (bool)"]);

/** A wallet holding exactly `amount` of the devnet's USDC and no gas. */
async function evmWallet(amount: bigint) {
  const account = freshAccount();
  const holder = createWalletClient({
    chain: devnetChain(evm.rpcUrl),
    transport: http(evm.rpcUrl),
    account: privateKeyToAccount(evm.accounts.others[0].privateKey),
  });
  const hash = await holder.writeContract({
    address: evm.usdc.address,
    abi: usdc,
    functionName: "transfer",
    args: [account.address, amount],
  });
  await chain().waitForTransactionReceipt({ hash });
  return account;
}

/** The relayer's transactions mined since `fromBlock`: how many, and how many reverted. */
async function relayerSent(fromBlock: bigint) {
  const client = chain();
  const latest = await client.getBlockNumber({ cacheTime: 0 });
  let sent = 0;
  let reverted = 0;
  for (let n = fromBlock + 1n; n <= latest; n++) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      if (tx.from.toLowerCase() !== evm.accounts.relayer.address.toLowerCase()) continue;
      sent++;
      if ((await client.getTransactionReceipt({ hash: tx.hash })).status !== "success") reverted++;
    }
  }
  return { sent, reverted };
}

const feePayerLamports = () => solana.node.svm.getBalance(solana.accounts.feePayer.address as never) ?? 0n;

async function outcomes(answers: Response[]) {
  return Promise.all(answers.map(async (r) => `${r.status} ${(await r.json()).reason ?? ""}`.trim()));
}
const tally = (seen: string[]) =>
  Object.fromEntries([...new Set(seen)].map((s) => [s, seen.filter((x) => x === s).length]));

for (const n of [0, 1]) {
  const name = n === 0 ? "one instance" : "two instances on one Redis";
  const skip = n === 1 ? redisMissing : undefined;

  for (const [funded, word] of [
    [1, "one"],
    [3, "three"],
  ] as const) {
    test(`doomed settlements, ${name}: ${N} calls at once from a wallet funded for ${word}: ${funded} answered, ${funded} relayer transactions, 0 reverted, ${N - funded} refused free before any work`, {
      skip,
    }, async () => {
      const instances = setups[n];
      const wallet = await evmWallet(BigInt(funded) * price);
      const headers = await Promise.all(
        Array.from({ length: N }, async (_, i) => {
          const path = `/v1/probe?echo=doomed-${n}-${funded}-${i}`;
          return { path, header: (await v2Header(wallet, await challengeOf(instances[0].fetch, url(path)))).header };
        }),
      );
      const payTo = chainReader(evm);
      const [fromBlock, runs, received] = [
        await chain().getBlockNumber({ cacheTime: 0 }),
        handlerRuns.count,
        await payTo.balance(evm.accounts.payTo.address),
      ];
      const answers = await Promise.all(
        headers.map(({ path, header }, i) =>
          instances[i % instances.length].fetch(url(path), { headers: { "payment-signature": header } }),
        ),
      );
      assert.deepEqual(
        {
          relayer: await relayerSent(fromBlock),
          handlerRuns: handlerRuns.count - runs,
          answers: tally(await outcomes(answers)),
        },
        {
          relayer: { sent: funded, reverted: 0 },
          handlerRuns: funded,
          answers: { "200": funded, "402 invalid_exact_evm_insufficient_balance": N - funded },
        },
      );
      assert.equal((await payTo.balance(evm.accounts.payTo.address)) - received, BigInt(funded) * price);
      assert.equal(await payTo.balance(wallet.address), 0n);
    });
  }

  test(`doomed settlements, ${name}: ${N} upto permits at once from a wallet funded for one quote: 1 answered, 1 relayer transaction, 0 reverted, ${N - 1} refused free`, {
    skip,
  }, async () => {
    const instances = setups[n];
    const wallet = await evmWallet(2000n);
    // The real upto client: Permit2 has no allowance, so each permit carries the same EIP-2612 permit for it.
    const client = new x402Client().register(evm.network, new UptoClient(toClientEvmSigner(wallet, chain())));
    client.setSpendControls(false);
    client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "upto"));
    const headers = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const path = `/v1/probe-all?echo=upto-${n}-${i}`;
        const res = await instances[0].fetch(url(path));
        await res.body?.cancel();
        const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());
        return { path, header: encodeHeader(await client.createPaymentPayload(required)) };
      }),
    );
    const [fromBlock, runs] = [await chain().getBlockNumber({ cacheTime: 0 }), handlerRuns.count];
    const answers = await Promise.all(
      headers.map(({ path, header }, i) =>
        instances[i % instances.length].fetch(url(path), { headers: { "payment-signature": header } }),
      ),
    );
    assert.deepEqual(
      {
        relayer: await relayerSent(fromBlock),
        handlerRuns: handlerRuns.count - runs,
        answers: tally(await outcomes(answers)),
      },
      {
        relayer: { sent: 1, reverted: 0 },
        handlerRuns: 1,
        answers: { "200": 1, "402 permit2_insufficient_balance": N - 1 },
      },
    );
    assert.equal(await chainReader(evm).balance(wallet.address), 0n);
  });

  test(`doomed settlements, ${name}: what a failed or refused call reserved is given back: a wallet funded for one pays its next call`, {
    skip,
  }, async () => {
    const instances = setups[n];
    const wallet = await evmWallet(price);
    const payTo = chainReader(evm);
    const call = async (path: string, at: Service) => {
      const { header } = await v2Header(wallet, await challengeOf(at.fetch, url(path)));
      const res = await at.fetch(url(path), { headers: { "payment-signature": header } });
      return (await outcomes([res]))[0];
    };
    const fromBlock = await chain().getBlockNumber({ cacheTime: 0 });
    const expensive = await call("/v1/probe-expensive", instances[0]);
    const failed = await call(`/v1/probe?outcome=bad&echo=given-back-${n}`, instances[0]);
    const paid = await call(`/v1/probe?echo=given-back-${n}`, instances[instances.length - 1]);
    assert.deepEqual(
      { expensive, failed, paid, relayer: await relayerSent(fromBlock) },
      {
        expensive: "402 invalid_exact_evm_insufficient_balance",
        failed: "400",
        paid: "200",
        relayer: { sent: 1, reverted: 0 },
      },
    );
    assert.equal(await payTo.balance(wallet.address), 0n);
  });

  test(`doomed settlements, ${name}: ${N} Solana payments at once from a wallet funded for one: 1 answer, the fee payer pays one fee, ${N - 1} refused free`, {
    skip,
  }, async () => {
    const instances = setups[n];
    const signer = await generateKeyPairSigner();
    await solana.fund(signer.address, price);
    const client = new ExactSvmScheme(signer, { rpcUrl: solana.rpcUrl });
    const headers = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const path = `/v1/probe?echo=doomed-sol-${n}-${i}`;
        const required = await challengeOf(instances[0].fetch, url(path));
        const accepted = required.accepts.find((a: { network: string }) => a.network === solana.network);
        const { payload } = await client.createPaymentPayload(2, accepted);
        return { path, header: toHeader({ x402Version: 2, resource: required.resource, accepted, payload }) };
      }),
    );
    const [lamports, runs] = [feePayerLamports(), handlerRuns.count];
    const answers = await Promise.all(
      headers.map(({ path, header }, i) =>
        instances[i % instances.length].fetch(url(path), { headers: { "payment-signature": header } }),
      ),
    );
    assert.deepEqual(
      {
        feePaid: lamports - feePayerLamports(),
        handlerRuns: handlerRuns.count - runs,
        answers: tally(await outcomes(answers)),
      },
      { feePaid: 10_001n, handlerRuns: 1, answers: { "200": 1, "402 insufficient_funds": N - 1 } },
    );
    assert.equal(await solana.balance(signer.address), 0n);
  });

  test(`doomed settlements, ${name}: a payer who moves its money away during a long call is refused at settlement: 0 relayer transactions, not charged`, {
    skip,
  }, async () => {
    const instances = setups[n];
    const payer = privateKeyToAccount(evm.accounts.others[1 + n].privateKey);
    const path = "/v1/probe-wait";
    const { header } = await v2Header(payer, await challengeOf(instances[0].fetch, url(path)));
    const entered = new Promise<void>((resolve) => (waiting.entered = resolve));
    let leave!: () => void;
    waiting.leave = new Promise<void>((resolve) => (leave = resolve));
    const fromBlock = await chain().getBlockNumber({ cacheTime: 0 });
    const answer = instances[instances.length - 1].fetch(url(path), { headers: { "payment-signature": header } });
    await entered;
    const reader = chainReader(evm);
    const all = await reader.balance(payer.address);
    const wallet = createWalletClient({ chain: devnetChain(evm.rpcUrl), transport: http(evm.rpcUrl), account: payer });
    const hash = await wallet.writeContract({
      address: evm.usdc.address,
      abi: usdc,
      functionName: "transfer",
      args: [evm.accounts.others[0].address as Address, all],
    });
    await chain().waitForTransactionReceipt({ hash });
    // A long call: what was read at admission is older than a block when the settlement is due.
    await new Promise((resolve) => setTimeout(resolve, freshMs));
    leave();
    const res = await answer;
    assert.deepEqual(
      { relayer: await relayerSent(fromBlock), answer: (await outcomes([res]))[0] },
      { relayer: { sent: 0, reverted: 0 }, answer: "402 invalid_exact_evm_insufficient_balance" },
    );
    // Back to where it was, for the next run.
    const back = await createWalletClient({
      chain: devnetChain(evm.rpcUrl),
      transport: http(evm.rpcUrl),
      account: privateKeyToAccount(evm.accounts.others[0].privateKey),
    }).writeContract({ address: evm.usdc.address, abi: usdc, functionName: "transfer", args: [payer.address, all] });
    await chain().waitForTransactionReceipt({ hash: back });
  });
}
