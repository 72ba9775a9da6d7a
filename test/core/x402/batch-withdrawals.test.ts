import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchClient } from "@x402/evm/batch-settlement/client";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { usdcBalance } from "../../../core/x402/devnet/index.ts";
import { batchTerms, channelPayer, escrowOn } from "../../helpers/channels.ts";
import { startDevnet, startPaidService } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { startRedis } from "../../helpers/redis.ts";

// Each test moves its chain's clock past a withdrawal delay, so each starts a devnet of its own: a deposit signed
// afterwards (valid for 300 s of wall-clock time) would be expired on that chain.

type Service = Awaited<ReturnType<typeof startPaidService>>;
const url = (path: string) => `http://127.0.0.1:4021${path}`;

/** A devnet and one instance, or two sharing a redis-server; `next()` takes the instances in turn. */
async function startWorld(t: TestContext, instances: number) {
  const devnet = await startDevnet();
  const redis = instances > 1 ? await startRedis() : undefined;
  const services: Service[] = [];
  for (let i = 0; i < instances; i++)
    services.push(await startPaidService(devnet, { plugins: [probePlugin], batch: { storeUrl: redis?.url } }));
  t.after(async () => {
    for (const service of services) await service.close();
    await redis?.stop();
    await devnet.stop();
  });
  let turn = 0;
  const escrow = escrowOn(devnet);
  return {
    devnet,
    services,
    escrow,
    next: () => services[turn++ % services.length],
    balance: (address: Hex) => usdcBalance(devnet.rpcUrl, devnet.usdc.address, address),
    /** Transactions the relayer sent: claims and settles (a refused simulation sends none). */
    relayerTransactions: () => escrow.reader.getTransactionCount({ address: devnet.accounts.relayer.address }),
  };
}
type World = Awaited<ReturnType<typeof startWorld>>;

/** An honest payer with the real client, its calls spread over the instances; how many of `calls` were answered. */
function honestPayer(world: World, index: number) {
  const account = privateKeyToAccount(world.devnet.accounts.others[index].privateKey);
  const scheme = new BatchClient(toClientEvmSigner(account, world.escrow.reader), { depositStrategy: () => "100000" });
  const client = new x402Client().register(world.devnet.network, scheme).setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "batch-settlement"));
  const pay = wrapFetchWithPayment((input, init) => world.next().fetch(input, init), client);
  return async (calls: number) => {
    let answered = 0;
    for (let i = 0; i < calls; i++) {
      const res = await pay(url("/v1/probe"));
      if (res.status === 200) answered++;
      await res.body?.cancel();
    }
    return answered;
  };
}

/** A payer signing by hand, with its own channel, that deposits `deposit` and pays `calls` probes. */
async function depositedPayer(world: World, index: number, deposit: bigint, calls: number) {
  const account = privateKeyToAccount(world.devnet.accounts.others[index].privateKey);
  const channel = channelPayer(world.devnet, account, { salt: `0x${"0".repeat(63)}9` });
  const terms = await batchTerms(world.services[0], "/v1/probe");
  const statuses = [(await channel.pay(world.next(), "/v1/probe", deposit)).status];
  for (let i = 1; i < calls; i++) statuses.push((await channel.pay(world.next())).status);
  assert.deepEqual(statuses, Array(calls).fill(200));
  const config = channel.configOf(terms);
  return {
    account,
    channel,
    channelId: channel.channelIdOf(terms),
    initiateWithdraw: (amount: bigint) =>
      world.escrow.send(account, { functionName: "initiateWithdraw", args: [config, amount] }),
    finalizeWithdraw: () => world.escrow.send(account, { functionName: "finalizeWithdraw", args: [config] }),
  };
}

/** Ages a channel's stored snapshot past the scheme's freshness window, as minutes of wall-clock time would. */
async function ageSnapshot(service: Service, channelId: string) {
  await service
    .batch!.scheme.getStorage()
    .updateChannel(channelId, (current) =>
      current ? { ...current, onchainSyncedAt: (current.onchainSyncedAt ?? 0) - 60 * 60_000 } : current,
    );
}

/** A claim pass whose failure is a figure of the test, not its end. */
const claimAndSettle = (service: Service) =>
  service.batch!.claimAndSettle().catch(() => ({ claims: [] as unknown[], settle: undefined }));

for (const instances of [1, 2]) {
  const where = instances === 1 ? "one instance" : "two instances on one redis-server";

  test(`batch-settlement (${where}): a payer that starts a withdrawal is served nothing more, whether the service learns of it from a top-up or from the chain; what it was charged is claimed before the deadline, and an honest payer's later calls are claimed`, async (t) => {
    const world = await startWorld(t, instances);
    const honest = honestPayer(world, 3);
    const payTo = world.devnet.accounts.payTo.address;
    const payToBefore = await world.balance(payTo);
    assert.equal(await honest(3), 3);
    const topper = await depositedPayer(world, 4, 50_000n, 5);
    const staler = await depositedPayer(world, 5, 50_000n, 5);
    await topper.initiateWithdraw(50_000n);
    await staler.initiateWithdraw(50_000n);
    const runs = handlerRuns.count;

    // One tops up through the service; the other pays on once the service reads the chain again.
    const topUp = await topper.channel.pay(world.next(), "/v1/probe", 5_000n);
    await ageSnapshot(world.services[0], staler.channelId);
    const stale = await staler.channel.pay(world.next());
    const seen = [await world.escrow.channel(topper.channelId), await world.escrow.channel(staler.channelId)];

    await world.escrow.advance(901);
    const returned: bigint[] = [];
    for (const leaver of [topper, staler]) {
      const before = await world.balance(leaver.account.address);
      await leaver.finalizeWithdraw();
      returned.push((await world.balance(leaver.account.address)) - before);
    }

    // Nine more vouchers from each, then each once more after the service read the chain again.
    const after: number[] = [];
    for (let i = 0; i < 9; i++)
      for (const leaver of [topper, staler]) after.push((await leaver.channel.pay(world.next())).status);
    for (const leaver of [topper, staler]) {
      await ageSnapshot(world.services[0], leaver.channelId);
      after.push((await leaver.channel.pay(world.next())).status);
    }
    const leaverRuns = handlerRuns.count - runs;

    const honestLater = await honest(3);
    await claimAndSettle(world.services[instances - 1]);
    assert.deepEqual(
      {
        refused: [topUp.status, stale.status],
        reasons: [topUp.body, stale.body].map((b) => JSON.parse(b).reason),
        // Nothing deposited, and what each was charged on-chain before the answer came back.
        onChainWhenSeen: seen,
        returned,
        servedAfterWithdrawal: after.filter((s) => s === 200).length,
        leaverRuns,
        honestLater,
        toPayTo: (await world.balance(payTo)) - payToBefore,
      },
      {
        refused: [402, 402],
        reasons: ["invalid_batch_settlement_evm_withdrawal_pending", "invalid_batch_settlement_evm_withdrawal_pending"],
        onChainWhenSeen: [
          { balance: 50_000n, totalClaimed: 5_000n },
          { balance: 50_000n, totalClaimed: 5_000n },
        ],
        returned: [45_000n, 45_000n],
        servedAfterWithdrawal: 0,
        leaverRuns: 0,
        honestLater: 3,
        toPayTo: 6_000n + 5_000n + 5_000n,
      },
    );
    assert.deepEqual(await world.services[0].batch!.manager.getClaimableVouchers(), []);
  });

  test(`batch-settlement (${where}): a channel whose claim must fail (its payer withdrew first) does not stop the others: the honest channel's calls reach payTo, and the failing claim sends no transaction`, async (t) => {
    const world = await startWorld(t, instances);
    const honest = honestPayer(world, 3);
    const payTo = world.devnet.accounts.payTo.address;
    const payToBefore = await world.balance(payTo);
    assert.equal(await honest(2), 2);
    // A payer withdraws everything before the service claims its five calls, and the service never reads the chain in between.
    const leaver = await depositedPayer(world, 5, 10_000n, 5);
    await leaver.initiateWithdraw(10_000n);
    await world.escrow.advance(901);
    await leaver.finalizeWithdraw();
    assert.deepEqual(await world.escrow.channel(leaver.channelId), { balance: 0n, totalClaimed: 0n });
    assert.equal(await honest(3), 3);

    const sent = await world.relayerTransactions();
    const first = await claimAndSettle(world.services[0]);
    const afterFirst = (await world.balance(payTo)) - payToBefore;
    // The next pass (on the other instance when there are two) claims the honest channel's new calls.
    assert.equal(await honest(2), 2);
    const second = await claimAndSettle(world.services[instances - 1]);
    assert.deepEqual(
      {
        claims: [first.claims.length, second.claims.length],
        toPayTo: [afterFirst, (await world.balance(payTo)) - payToBefore],
        // Two claims and two settles: a claim that must fail is refused in simulation and never sent.
        relayerTransactions: (await world.relayerTransactions()) - sent,
        leaverOnChain: await world.escrow.channel(leaver.channelId),
      },
      {
        claims: [1, 1],
        toPayTo: [5_000n, 7_000n],
        relayerTransactions: 4,
        leaverOnChain: { balance: 0n, totalClaimed: 0n },
      },
    );
  });
}
