import { after, before, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchClient } from "@x402/evm/batch-settlement/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { importFamily } from "../../../core/runtime/load.ts";
import type { Store } from "../../../core/endpoint.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { compileContract } from "../../../core/x402/devnet/compile.ts";
import { devnetChain, testUsdcAbi } from "../../../core/x402/devnet/index.ts";
import { batchTerms, channelPayer, escrowOn, type EscrowChannelConfig } from "../../helpers/channels.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { startRedis, type RedisServer } from "../../helpers/redis.ts";

const statePlugin = await importFamily("state");

type Service = Awaited<ReturnType<typeof startPaidService>>;
let devnet: Devnet;
let redis: RedisServer;
const url = (path: string) => `http://127.0.0.1:4021${path}`;

before(async () => {
  [devnet, redis] = await Promise.all([startDevnet(), startRedis()]);
});
after(async () => {
  await redis?.stop();
  await devnet?.stop();
});

/** One instance (channels and keys in memory), or two sharing a redis-server; each with its own store handle. */
async function startInstances(t: TestContext, count: number) {
  const instances: { service: Service; store: Store }[] = [];
  for (let i = 0; i < count; i++) {
    const store = count > 1 ? await createRedisStore(redis.url, pino({ level: "silent" })) : createMemoryStore();
    const batch = { storeUrl: count > 1 ? redis.url : undefined };
    const service = await startPaidService(devnet, { plugins: [statePlugin, probePlugin], store, batch });
    instances.push({ service, store });
    t.after(async () => {
      await service.close();
      await (store as Partial<RedisStore>).close?.();
    });
  }
  return instances;
}

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
  const artifact = await compileContract(
    "AttackerDepositCollector",
    new URL("../../core/x402/contracts/", import.meta.url),
  );
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

for (const count of [1, 2]) {
  const where = count === 1 ? "one instance" : "two instances on one redis-server";

  test(`batch-settlement (${where}): a channel naming a victim as payer, funded through the attacker's own collector, reads and writes only the attacker's keys`, async (t) => {
    const instances = await startInstances(t, count);
    const at = (i: number) => instances[i % count];
    const victim = privateKeyToAccount(devnet.accounts.others[0].privateKey);
    const attacker = privateKeyToAccount(devnet.accounts.others[1].privateKey);
    assert.equal((await payingExact(victim, at(0).service)(url("/v1/store?key=plan&value=victim-secret"))).status, 200);
    const victimRecord = await at(0).store.get(kvKey(victim.address, "plan"));
    assert.equal((victimRecord as { value: string }).value, "victim-secret");

    const channel = channelPayer(devnet, attacker, { salt: `0x${"0".repeat(63)}${count}`, payer: victim.address });
    const terms = await batchTerms(at(0).service, "/v1/probe");
    await fundThroughOwnCollector(attacker, channel.configOf(terms), 100_000n);

    // The first voucher takes the scheme's path (a channel the service never saw), the next ones the local check.
    const runs = handlerRuns.count;
    const answers = [
      await channel.pay(at(0).service, "/v1/retrieve?key=plan"),
      await channel.pay(at(1).service, "/v1/retrieve?key=plan"),
      await channel.pay(at(0).service, "/v1/store?key=plan&value=attacker-1"),
      await channel.pay(at(1).service, "/v1/store?key=plan&value=attacker-2"),
      await channel.pay(at(0).service, "/v1/retrieve?key=plan"),
      await channel.pay(at(1).service, "/v1/probe"),
    ];
    const stored = await at(1).service.batch!.scheme.getStorage().get(channel.channelIdOf(terms));
    const victimRead = await payingExact(victim, at(1).service)(url("/v1/retrieve?key=plan"));
    assert.deepEqual(
      {
        statuses: answers.map((a) => a.status),
        answersWithTheSecret: answers.filter((a) => a.body.includes("victim-secret")).length,
        readBack: JSON.parse(answers[4].body).data?.value,
        probeRanAs: JSON.parse(answers[5].body).data?.payer,
        probeRuns: handlerRuns.count - runs,
        // The victim's key is as it stored it; the attacker's writes are in its own namespace.
        victimRecord: await at(1).store.get(kvKey(victim.address, "plan")),
        attackerVersion: (await at(1).store.get<{ version: number }>(kvKey(attacker.address, "plan")))?.version,
        victimReads: (await victimRead.json()).data.value,
        // Two stores, a read and a probe were charged; the reads of an empty key were not.
        charged: stored?.chargedCumulativeAmount,
      },
      {
        statuses: [404, 404, 200, 200, 200, 200],
        answersWithTheSecret: 0,
        readBack: "attacker-2",
        probeRanAs: attacker.address,
        probeRuns: 1,
        victimRecord,
        attackerVersion: 2,
        victimReads: "victim-secret",
        charged: String(10_000 + 10_000 + 5_000 + 1_000),
      },
    );
  });
}

test("batch-settlement: a call paid by voucher runs as the key that signed the voucher, on the deposit and on the plain vouchers after it", async (t) => {
  const funder = privateKeyToAccount(devnet.accounts.others[2].privateKey);
  const sessionKey = privateKeyToAccount(generatePrivateKey());
  const reader = escrowOn(devnet).reader;
  const scheme = new BatchClient(toClientEvmSigner(funder, reader), {
    depositStrategy: () => "100000",
    voucherSigner: toClientEvmSigner(sessionKey, reader),
  });
  const client = new x402Client().register(devnet.network, scheme).setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "batch-settlement"));
  const [{ service }] = await startInstances(t, 1);
  const pay = wrapFetchWithPayment(service.fetch, client);
  const payers = [];
  for (const path of ["/v1/probe?echo=deposit", "/v1/probe?echo=voucher", "/v1/probe?echo=again"]) {
    const res = await pay(url(path));
    assert.equal(res.status, 200);
    payers.push((await res.json()).data.payer);
  }
  assert.deepEqual(payers, [sessionKey.address, sessionKey.address, sessionKey.address]);
});
