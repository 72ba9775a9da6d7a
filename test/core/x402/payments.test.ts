import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment as wrapV1, decodeXPaymentResponse } from "x402-fetch";
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { probePlugin, handlerRuns } from "../../helpers/probe-plugin.ts";
import { challengeOf, newPaymentId, v2Header } from "../../helpers/sign.ts";

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let chain: ReturnType<typeof chainReader>;
const url = (path: string) => `http://127.0.0.1:4021${path}`;

before(async () => {
  devnet = await startDevnet();
  chain = chainReader(devnet);
  service = await startPaidService(devnet, { plugins: [probePlugin] });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
const payTo = () => devnet.accounts.payTo.address;

function v2Fetch(account = payer()) {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  client.setSpendControls(false);
  return wrapFetchWithPayment(service.fetch, client);
}

test("x402-fetch 1.x pays a route with v1: 200, X-PAYMENT-RESPONSE, exactly the price moved", async () => {
  const before = await chain.balance(payTo());
  const payerBefore = await chain.balance(devnet.accounts.payer.address);
  const res = await wrapV1(service.fetch, payer() as any)(url("/v1/probe?echo=v1"));
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.data.echo, "v1");
  assert.equal(body.data.payer, devnet.accounts.payer.address);
  const receipt = decodeXPaymentResponse(res.headers.get("x-payment-response")!);
  assert.equal(receipt.success, true);
  assert.equal(receipt.network, "base-sepolia");
  assert.match(receipt.transaction, /^0x[0-9a-f]{64}$/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.equal((await chain.balance(payTo())) - before, 1000n);
  assert.equal(payerBefore - (await chain.balance(devnet.accounts.payer.address)), 1000n);
});

test("@x402/fetch 2.x pays a route with v2: 200, PAYMENT-RESPONSE, exactly the price moved", async () => {
  const before = await chain.balance(payTo());
  const res = await v2Fetch()(url("/v1/probe-expensive"));
  assert.equal(res.status, 200);
  assert.deepEqual((await res.json()).data, { ok: true });
  const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
  assert.equal(receipt.success, true);
  assert.equal(receipt.network, "eip155:84532");
  assert.equal(receipt.payer, devnet.accounts.payer.address);
  assert.equal((await chain.balance(payTo())) - before, 10000n);
});

test("the same payment sent 20 times at once: one answer, one transfer; a retry with its payment identifier replays it free", async () => {
  const required = await challengeOf(service.fetch, url("/v1/probe?echo=once"));
  const { header } = await v2Header(payer(), required, {}, undefined, newPaymentId());
  const before = await chain.balance(payTo());
  const runs = handlerRuns.count;
  const responses = await Promise.all(
    Array.from({ length: 20 }, () =>
      service.fetch(url("/v1/probe?echo=once"), { headers: { "payment-signature": header } }),
    ),
  );
  const statuses = responses.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 200).length, 1, String(statuses));
  assert.equal(statuses.filter((s) => s === 409).length, 19, String(statuses));
  assert.equal(handlerRuns.count - runs, 1);
  assert.equal((await chain.balance(payTo())) - before, 1000n);

  const retry = await service.fetch(url("/v1/probe?echo=once"), { headers: { "payment-signature": header } });
  assert.equal(retry.status, 200);
  assert.equal(retry.headers.get("x-payment-replayed"), "true");
  assert.equal((await retry.json()).data.echo, "once");
  assert.ok(retry.headers.get("payment-response"));
  assert.equal(handlerRuns.count - runs, 1);
  assert.equal((await chain.balance(payTo())) - before, 1000n);

  const otherRequest = await service.fetch(url("/v1/probe?echo=other"), { headers: { "payment-signature": header } });
  assert.equal(otherRequest.status, 409);
  assert.equal((await otherRequest.json()).error.code, "payment_already_used");
});

test("handler failures settle nothing and release the payment", async () => {
  for (const outcome of ["bad", "missing", "upstream", "crash", "slow"]) {
    const required = await challengeOf(service.fetch, url(`/v1/probe?outcome=${outcome}`));
    const { header } = await v2Header(payer(), required);
    const before = await chain.balance(payTo());
    const res = await service.fetch(url(`/v1/probe?outcome=${outcome}`), { headers: { "payment-signature": header } });
    const expected = { bad: 400, missing: 404, upstream: 502, crash: 500, slow: 504 }[outcome];
    assert.equal(res.status, expected, outcome);
    assert.equal(res.headers.get("payment-response"), null, outcome);
    assert.equal(await chain.balance(payTo()), before, `${outcome} moved money`);
  }
});

test("settlements are counted for the service report: one paid call, one settlement of its price", async () => {
  const before = await service.ledger.stats();
  const res = await v2Fetch()(url("/v1/probe?echo=count"));
  assert.equal(res.status, 200);
  const after = await service.ledger.stats();
  assert.equal(after.settled - before.settled, 1);
  assert.equal(after.settledAtomic - before.settledAtomic, 1000);
  const report = await service.app.request("/v1/service");
  assert.equal(report.status, 402, "the report is a paid route");
});
