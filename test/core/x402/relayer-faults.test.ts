import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createPublicClient, http } from "viem";
import { testUsdcAbi } from "../../../core/x402/devnet/index.ts";
import { createX402Facilitator } from "../../../core/x402/facilitator.ts";
import { relayerOn } from "../../../core/x402/relayer.ts";
import { chainReader, startDevnet, type Devnet } from "../../helpers/paid.ts";
import { accountOf, blockNow, payProbe, probeUrl, startInstance, transfersTo } from "../../helpers/rail.ts";
import { startRpcProxy, type RpcProxy } from "../../helpers/rpc-proxy.ts";
import { challengeOf, v2Header } from "../../helpers/sign.ts";

/**
 * The path between the relayer and the node breaking around a send: a lost reply is not a failed send
 * (the transaction may be in the pool or mined), and a refused send is not a pending one (nothing can land).
 */
let devnet: Devnet;
let proxy: RpcProxy;
let service: Awaited<ReturnType<typeof startInstance>>;
let chain: ReturnType<typeof chainReader>;

before(async () => {
  devnet = await startDevnet();
  chain = chainReader(devnet);
  proxy = await startRpcProxy(devnet.rpcUrl);
  service = await startInstance(devnet, { rpcUrl: proxy.url });
});

after(async () => {
  await service?.close();
  await proxy?.close();
  await devnet?.stop();
});

const payTo = () => devnet.accounts.payTo.address;

async function movedDuring(payer: ReturnType<typeof accountOf>, work: () => Promise<void>) {
  const from = (await blockNow(devnet)) + 1n;
  const before = await chain.balance(payer.address);
  await work();
  return {
    transfers: await transfersTo(devnet, payTo(), from, payer.address),
    paid: before - (await chain.balance(payer.address)),
  };
}

test("relayer: a send whose reply is lost after the node took it still settles: 200, one transfer", async () => {
  const payer = accountOf(devnet, 0);
  const sends = proxy.calls.eth_sendRawTransaction ?? 0;
  const moved = await movedDuring(payer, async () => {
    proxy.loseSendReplies(1);
    const { res, body } = await payProbe(service, payer, "lost-reply");
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.data.echo, "lost-reply");
    assert.ok(res.headers.get("payment-response"));
  });
  assert.equal(proxy.calls.eth_sendRawTransaction - sends, 1, "waited for by its hash, not sent again");
  assert.deepEqual(moved, { transfers: { count: 1, value: 1000n }, paid: 1000n });
});

test("relayer: a send lost before it reached the node is sent again and settles: 200, one transfer", async () => {
  const payer = accountOf(devnet, 1);
  const moved = await movedDuring(payer, async () => {
    proxy.swallowSends(1);
    const { res, body } = await payProbe(service, payer, "swallowed");
    assert.equal(res.status, 200, JSON.stringify(body));
  });
  assert.deepEqual(moved, { transfers: { count: 1, value: 1000n }, paid: 1000n });
});

test("relayer: a refused send is not charged and not pending: 402 with the answer withheld, 0 transfers; the next send settles", async () => {
  const payer = accountOf(devnet, 2);
  const refused = await movedDuring(payer, async () => {
    proxy.refuseSends(1);
    const paid = await payProbe(service, payer, "refused");
    assert.equal(paid.res.status, 402);
    assert.equal(paid.body.reason, "unexpected_settle_error");
    assert.equal(paid.body.creditCode, undefined, "no settlement_pending credit code");
    assert.doesNotMatch(JSON.stringify(paid.body), /"echo"/);
    const reader = createPublicClient({ transport: http(devnet.rpcUrl) });
    const used = await reader.readContract({
      address: devnet.usdc.address,
      abi: testUsdcAbi,
      functionName: "authorizationState",
      args: [payer.address, paid.authorization.nonce as `0x${string}`],
    });
    assert.equal(used, false, "the authorization is still unused on-chain");
  });
  assert.deepEqual(refused, { transfers: { count: 0, value: 0n }, paid: 0n });

  const again = await movedDuring(payer, async () => {
    const { res } = await payProbe(service, payer, "after-refusal");
    assert.equal(res.status, 200);
  });
  assert.deepEqual(again, { transfers: { count: 1, value: 1000n }, paid: 1000n });
});

test("relayer: the @x402 fallback sends through the relayer too: 10 settlements at once with another instance's 10 sends on one key, 10 transfers", async () => {
  const payer = accountOf(devnet, 3);
  const options = { rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, relayerKey: devnet.accounts.relayer.privateKey };
  const fallback = createX402Facilitator(options, relayerOn(options));
  const otherInstance = relayerOn(options).relayer;
  const required = await challengeOf(service.fetch, probeUrl());
  const payments = await Promise.all(Array.from({ length: 10 }, () => v2Header(payer, required)));
  let results: { success: boolean }[] = [];
  const moved = await movedDuring(payer, async () => {
    const settling = payments.map(({ payload }) =>
      fallback.settle(
        { x402Version: 2, resource: required.resource, accepted: required.accepts[0], payload } as any,
        required.accepts[0],
      ),
    );
    const others = Array.from({ length: 10 }, () =>
      otherInstance.relay({ to: devnet.accounts.relayer.address, data: "0x", gas: 21_000n }, 30_000),
    );
    [results] = await Promise.all([Promise.all(settling), Promise.all(others)]);
  });
  assert.equal(results.filter((r) => r.success).length, 10, JSON.stringify(results.find((r) => !r.success)));
  assert.deepEqual(moved, { transfers: { count: 10, value: 10_000n }, paid: 10_000n });
});
