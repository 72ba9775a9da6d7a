import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as BatchClient } from "@x402/evm/batch-settlement/client";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetChain } from "../../../core/x402/devnet/index.ts";
import { startMetricsServer } from "../../../core/runtime/prometheus.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { startTestService } from "../../helpers/service.ts";

// What an operator's Prometheus reads: each paying action moves exactly its own series, by exactly its amount.
const token = "metrics-test-token-0123456789";
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let failSettlement = false;
let loseSettlement = false;
const url = (path: string) => `http://127.0.0.1:4021${path}`;

before(async () => {
  devnet = await startDevnet();
  service = await startPaidService(devnet, {
    plugins: [probePlugin],
    batch: {},
    env: { METRICS_TOKEN: token },
    facilitator: (real) => ({
      ...real,
      verify: (payload, requirements) => real.verify(payload, requirements),
      settle: (payload, requirements) =>
        loseSettlement
          ? Promise.reject(new Error("the RPC's reply was lost"))
          : failSettlement
            ? Promise.resolve({ success: false, errorReason: "test_refusal", transaction: "", network: devnet.network })
            : real.settle(payload, requirements),
    }),
  });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

/** Every series of the exposition as `name{labels}` → value; histogram buckets and sums (timings) left out. */
async function scrape(): Promise<Map<string, number>> {
  const res = await service.fetch(url("/metrics"), { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  const series = new Map<string, number>();
  for (const line of (await res.text()).split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

/** What moved between two scrapes, leaving out what time alone moves and the scrapes' own requests. */
function moved(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const changes: Record<string, number> = {};
  for (const [name, value] of after) {
    if (/^(process_|nodejs_)|_bucket\{|_sum\{|route="\/metrics"|x402_wallet_balance/.test(name)) continue;
    const delta = value - (before.get(name) ?? 0);
    if (delta !== 0) changes[name] = delta;
  }
  return changes;
}

const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
function exactFetch() {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer() });
  client.setSpendControls(false);
  client.registerPolicy((_version, accepts) => accepts.filter((a) => a.scheme === "exact"));
  return wrapFetchWithPayment(service.fetch, client);
}
function voucherFetch() {
  const reader = createPublicClient({ chain: devnetChain(devnet.rpcUrl), transport: http(devnet.rpcUrl) });
  const scheme = new BatchClient(toClientEvmSigner(payer(), reader), { depositStrategy: () => "100000" });
  const client = new x402Client().register(devnet.network, scheme).setSpendControls(false);
  client.registerPolicy((_version, accepts) => accepts.filter((a) => a.scheme === "batch-settlement"));
  return wrapFetchWithPayment(service.fetch, client);
}

const n = () => devnet.network;
const series = {
  request: (status: number) => `http_requests_total{route="/v1/probe",status="${status}"}`,
  challenge: 'x402_402_responses_total{route="/v1/probe"}',
  payment: (protocol: string, scheme: string, network: string, outcome: string) =>
    `x402_payments_total{protocol="${protocol}",scheme="${scheme}",network="${network}",outcome="${outcome}"}`,
  revenue: () => `x402_revenue_atomic_total{route="/v1/probe",network="${n()}"}`,
  settlement: (scheme: string, outcome: string) =>
    `x402_settlement_duration_seconds_count{scheme="${scheme}",network="${n()}",outcome="${outcome}"}`,
};

test("every series is there at zero from boot, for the routes, networks and schemes the service offers", async () => {
  const s = await scrape();
  for (const name of [
    series.request(200),
    series.request(402),
    series.challenge,
    series.payment("x402v2", "exact", n(), "paid"),
    series.payment("x402v1", "exact", n(), "settlement_failed"),
    series.payment("x402v2", "batch-settlement", n(), "paid"),
    series.payment("credit", "credit", "none", "paid"),
    series.revenue(),
    series.settlement("exact", "paid"),
    `x402_settlements_pending_total{network="${n()}"}`,
    `x402_settlements_reconciled_total{network="${n()}",result="credited"}`,
    `x402_vouchers_accepted_total{network="${n()}"}`,
    `x402_vouchers_claimed_total{network="${n()}"}`,
    "x402_credits_issued_atomic_total",
    "x402_credits_spent_atomic_total",
  ])
    assert.ok(s.has(name), `${name} is missing`);
  assert.ok(
    [...s.keys()].some((name) => name.startsWith("nodejs_eventloop_lag_seconds")),
    "the event-loop delay is exposed",
  );
});

test("a paid call: one 402, one 200, one exact payment paid, its price as revenue, one settlement timed; nothing else", async () => {
  const before = await scrape();
  const runs = handlerRuns.count;
  const res = await exactFetch()(url("/v1/probe?echo=paid"));
  assert.equal(res.status, 200);
  assert.equal(handlerRuns.count - runs, 1);
  assert.deepEqual(moved(before, await scrape()), {
    [series.request(402)]: 1,
    [series.request(200)]: 1,
    [series.challenge]: 1,
    [series.payment("x402v2", "exact", n(), "paid")]: 1,
    [series.revenue()]: 1000,
    [series.settlement("exact", "paid")]: 1,
  });
});

test("a failed settlement: two 402s (the challenge, the refusal), one settlement_failed, no revenue", async () => {
  const before = await scrape();
  failSettlement = true;
  const res = await exactFetch()(url("/v1/probe?echo=unsettled")).finally(() => {
    failSettlement = false;
  });
  assert.equal(res.status, 402);
  assert.deepEqual(moved(before, await scrape()), {
    [series.request(402)]: 2,
    [series.challenge]: 2,
    [series.payment("x402v2", "exact", n(), "settlement_failed")]: 1,
    [series.settlement("exact", "settlement_failed")]: 1,
  });
});

test("a settlement that does not finish: one pending, queued for reconciliation, its credit code issued empty", async () => {
  const before = await scrape();
  loseSettlement = true;
  const res = await exactFetch()(url("/v1/probe?echo=lost")).finally(() => {
    loseSettlement = false;
  });
  assert.equal(res.status, 402);
  assert.equal((await res.json()).reason, "settlement_pending");
  assert.deepEqual(moved(before, await scrape()), {
    [series.request(402)]: 2,
    [series.challenge]: 2,
    [series.payment("x402v2", "exact", n(), "pending")]: 1,
    [series.settlement("exact", "pending")]: 1,
    [`x402_settlements_pending_total{network="${n()}"}`]: 1,
    x402_credit_codes_issued_total: 1,
  });
});

test("a credit: issuing it counts one code and its value; a call paid with it counts its price spent, no revenue", async () => {
  let before = await scrape();
  const code = await service.credits.issue(5000n, "metrics test");
  assert.deepEqual(moved(before, await scrape()), {
    x402_credit_codes_issued_total: 1,
    x402_credits_issued_atomic_total: 5000,
  });
  before = await scrape();
  const res = await service.fetch(url("/v1/probe?echo=credit"), { headers: { "x-credit-code": code } });
  assert.equal(res.status, 200);
  assert.deepEqual(moved(before, await scrape()), {
    [series.request(200)]: 1,
    [series.payment("credit", "credit", "none", "paid")]: 1,
    x402_credits_spent_atomic_total: 1000,
  });
});

test("a voucher call: one voucher accepted, its price as revenue; the claim counts one voucher claimed", async () => {
  let before = await scrape();
  const res = await voucherFetch()(url("/v1/probe?echo=voucher"));
  assert.equal(res.status, 200);
  assert.deepEqual(moved(before, await scrape()), {
    [series.request(402)]: 1,
    [series.request(200)]: 1,
    [series.challenge]: 1,
    [series.payment("x402v2", "batch-settlement", n(), "paid")]: 1,
    [series.revenue()]: 1000,
    [series.settlement("batch-settlement", "paid")]: 1,
    [`x402_vouchers_accepted_total{network="${n()}"}`]: 1,
  });
  before = await scrape();
  await service.batch!.claimAndSettle();
  assert.deepEqual(moved(before, await scrape()), { [`x402_vouchers_claimed_total{network="${n()}"}`]: 1 });
});

test("never public by accident: no METRICS_TOKEN, no /metrics on the public port; with it, a wrong token gets a 401", async () => {
  const plain = await startTestService({ plugins: ["converters"] });
  assert.equal((await plain.request("/metrics")).status, 404);
  assert.equal((await service.fetch(url("/metrics"))).status, 401);
  assert.equal(
    (await service.fetch(url("/metrics"), { headers: { authorization: `Bearer ${token.replace(/.$/, "x")}` } })).status,
    401,
  );
});

test("METRICS_PORT: /metrics alone on its own port, the token still asked for when set", async () => {
  const open = await startMetricsServer({ port: 0, host: "127.0.0.1" });
  const guarded = await startMetricsServer({ port: 0, host: "127.0.0.1", token });
  try {
    const res = await fetch(`http://127.0.0.1:${open.port}/metrics`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /^x402_payments_total\{/m);
    assert.equal((await fetch(`http://127.0.0.1:${open.port}/v1/probe`)).status, 404);
    assert.equal((await fetch(`http://127.0.0.1:${guarded.port}/metrics`)).status, 401);
    const authed = await fetch(`http://127.0.0.1:${guarded.port}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(authed.status, 200);
  } finally {
    await Promise.all([open.close(), guarded.close()]);
  }
});
