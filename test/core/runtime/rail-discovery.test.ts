import { test } from "node:test";
import assert from "node:assert/strict";
import { createClosedGate, type Offers } from "../../../core/payment/gate.ts";
import type { Discovery } from "../../../core/payment/discovery.ts";
import { x402Offers } from "../../../core/x402/offers.ts";
import type { PaymentOption, RouteRequirements } from "../../../core/x402/requirements.ts";
import { startTestService, testPaymentOption } from "../../helpers/service.ts";

// A second rail's parts, registered beside x402's through its offers' discovery: the runtime publishes them with
// no change of its own (CONTRIBUTING, "Adding a way to pay"). Its name and shapes are made up; only the wiring is real.
const x402 = x402Offers([testPaymentOption], "http://127.0.0.1:4021");
const { discovery } = x402;
const second: Discovery = {
  ...discovery,
  documents: [
    ...discovery.documents,
    { path: "/.well-known/second-rail", label: "second rail", build: (endpoints) => ({ routes: endpoints.length }) },
  ],
  openApi: {
    ...discovery.openApi,
    securitySchemes: { ...discovery.openApi.securitySchemes, secondRail: { type: "http", scheme: "payment" } },
    protocols: (e) => [...discovery.openApi.protocols(e), { secondRail: { route: e.name } }],
  },
  metrics: {
    payments: [...discovery.metrics.payments, { protocol: "second", scheme: "charge", network: "none" }],
    vouchers: discovery.metrics.vouchers,
  },
};
const offers: Offers<PaymentOption, RouteRequirements> = { ...x402, discovery: second };
const service = await startTestService({ plugins: ["converters"], payments: createClosedGate(offers) });

test("a rail's own document is served at its path and listed in llms.txt by its label", async () => {
  const res = await service.request("/.well-known/second-rail");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { routes: service.runtime.endpoints.length });
  assert.equal((await service.request("/x402-manifest")).status, 200);
  const llms = await (await service.request("/llms.txt")).text();
  assert.match(llms, /^- second rail: http:\/\/127\.0\.0\.1:4021\/\.well-known\/second-rail$/m);
  assert.match(llms, /^- x402 manifest: http:\/\/127\.0\.0\.1:4021\/x402-manifest$/m);
});

test("a rail's OpenAPI parts: its security scheme, and its entry in every paid operation's x-payment-info", async () => {
  const doc = await (await service.request("/openapi.json")).json();
  assert.deepEqual(Object.keys(doc.components.securitySchemes), ["x402", "secondRail", "siwx"]);
  const operation = doc.paths["/v1/base64"].post ?? doc.paths["/v1/base64"].get;
  const protocols = operation["x-payment-info"].protocols;
  assert.equal(protocols.length, 2);
  assert.deepEqual(protocols[1], { secondRail: { route: "base64" } });
  assert.equal(protocols[0].x402.accepts[0].network, testPaymentOption.network);
});

test("a rail's payment series are at zero from boot", async () => {
  const { registry } = await import("../../../core/runtime/prometheus.ts");
  const series = (await registry.getSingleMetric("x402_payments_total")!.get()).values;
  const ours = series.filter((s) => s.labels.protocol === "second");
  assert.equal(ours.length, 10, "one per payment outcome");
  assert.ok(ours.every((s) => s.value === 0 && s.labels.scheme === "charge"));
});
