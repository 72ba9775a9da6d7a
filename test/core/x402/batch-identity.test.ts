import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchClient } from "@x402/evm/batch-settlement/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import statePlugin from "../../../plugins/state/index.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { compileContract } from "../../../core/x402/devnet/compile.ts";
import { devnetChain, testUsdcAbi } from "../../../core/x402/devnet/index.ts";
import { batchTerms, channelPayer, escrowOn, type EscrowChannelConfig } from "../../helpers/channels.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { startRedis, type RedisServer } from "../../helpers/redis.ts";

type Service = Awaited<ReturnType<typeof startPaidService>>;
let devnet: Devnet;
let redis: RedisServer;
let stores: RedisStore[];
let one: Service;
let two: Service;
const url = (path: string) => `http://127.0.0.1:4021${path}`;

before(async () => {
  [devnet, redis] = await Promise.all([startDevnet(), startRedis()]);
  const log = pino({ level: "silent" });
  stores = await Promise.all([createRedisStore(redis.url, log), createRedisStore(redis.url, log)]);
  const options = { plugins: [statePlugin, probePlugin], batch: { storeUrl: redis.url } };
  one = await startPaidService(devnet, { ...options, store: stores[0] });
  two = await startPaidService(devnet, { ...options, store: stores[1] });
});
after(async () => {
  await one?.close();
  await two?.close();
  await Promise.all((stores ?? []).map((s) => s.close()));
  await redis?.stop();
  await devnet?.stop();
});

const kvKey = (wallet: string, key: string) => `state:kv:${wallet.toLowerCase()}:${key}`;

function payingExact(account: PrivateKeyAccount, service: Service) {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  client.setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "exact"));
  return wrapFetchWithPayment(service.fetch, client);
}

/** Funds a channel straight on the escrow, through a collector of the attacker's own that pays from its own balance. */
async function fundThroughOwnCollector(attacker: PrivateKeyAccount, config: EscrowChannelConfig, amount: bigint) {
  const chain = devnetChain(devnet.rpcUrl);
  const wallet = createWalletClient({ chain, transport: http(devnet.rpcUrl), account: attacker });
  const escrow = escrowOn(devnet);
  const artifact = await compileContract("AttackerDepositCollector", new URL("./contracts/", import.meta.url));
  const deployed = await escrow.reader.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode }),
  });
  const collector = deployed.contractAddress!;
  await escrow.reader.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: devnet.usdc.address,
      abi: testUsdcAbi,
      functionName: "transfer",
      args: [collector, amount],
    }),
  });
  await escrow.send(attacker, { functionName: "deposit", args: [config, amount, collector, "0x"] });
}

test("batch-settlement: a channel naming a victim as payer, funded through the attacker's own collector, reads and writes only the attacker's keys, on either instance", async () => {
  const victim = privateKeyToAccount(devnet.accounts.others[0].privateKey);
  const attacker = privateKeyToAccount(devnet.accounts.others[1].privateKey);
  assert.equal((await payingExact(victim, one)(url("/v1/store?key=plan&value=victim-secret"))).status, 200);
  const victimRecord = await stores[0].get(kvKey(victim.address, "plan"));
  assert.equal((victimRecord as { value: string }).value, "victim-secret");

  const channel = channelPayer(devnet, attacker, { salt: `0x${"0".repeat(63)}7`, payer: victim.address });
  const terms = await batchTerms(one, "/v1/probe");
  await fundThroughOwnCollector(attacker, channel.configOf(terms), 100_000n);

  // The first voucher takes the scheme's path (a channel the service never saw), the next ones the local check.
  const runs = handlerRuns.count;
  const answers = [
    await channel.pay(one, "/v1/retrieve?key=plan"),
    await channel.pay(two, "/v1/retrieve?key=plan"),
    await channel.pay(one, "/v1/store?key=plan&value=attacker-1"),
    await channel.pay(two, "/v1/store?key=plan&value=attacker-2"),
    await channel.pay(one, "/v1/retrieve?key=plan"),
    await channel.pay(two, "/v1/probe"),
  ];
  assert.deepEqual(
    answers.map((a) => a.status),
    [404, 404, 200, 200, 200, 200],
  );
  assert.equal(answers.filter((a) => a.body.includes("victim-secret")).length, 0);
  assert.equal(JSON.parse(answers[4].body).data.value, "attacker-2");
  assert.equal(JSON.parse(answers[5].body).data.payer, attacker.address);
  assert.equal(handlerRuns.count - runs, 1);

  // The victim's key is as it stored it; the attacker's writes are in its own namespace; only the answers were charged.
  assert.deepEqual(await stores[1].get(kvKey(victim.address, "plan")), victimRecord);
  assert.equal((await stores[1].get<{ version: number }>(kvKey(attacker.address, "plan")))?.version, 2);
  const stored = await two.batch!.scheme.getStorage().get(channel.channelIdOf(terms));
  assert.equal(stored?.chargedCumulativeAmount, String(10_000 + 10_000 + 5_000 + 1_000));
  const victimRead = await payingExact(victim, two)(url("/v1/retrieve?key=plan"));
  assert.equal((await victimRead.json()).data.value, "victim-secret");
});

test("batch-settlement: a call paid by voucher runs as the key that signed the voucher, on the deposit and on the plain vouchers after it", async () => {
  const funder = privateKeyToAccount(devnet.accounts.others[2].privateKey);
  const sessionKey = privateKeyToAccount(generatePrivateKey());
  const reader = escrowOn(devnet).reader;
  const scheme = new BatchClient(toClientEvmSigner(funder, reader), {
    depositStrategy: () => "100000",
    voucherSigner: toClientEvmSigner(sessionKey, reader),
  });
  const client = new x402Client().register(devnet.network, scheme).setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "batch-settlement"));
  const pay = wrapFetchWithPayment(one.fetch, client);
  const payers = [];
  for (const path of ["/v1/probe?echo=deposit", "/v1/probe?echo=voucher", "/v1/probe?echo=again"]) {
    const res = await pay(url(path));
    assert.equal(res.status, 200);
    payers.push((await res.json()).data.payer);
  }
  assert.deepEqual(payers, [sessionKey.address, sessionKey.address, sessionKey.address]);
});
