import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const SEC_DOCS =
  "https://www.sec.gov/os/accessing-edgar-data (403 without a User-Agent naming a contact; 10 requests/s)";

test("sec-metrics: the latest fiscal year against the one before, balances from the latest report", async (t) => {
  const { service } = await marketService(t, ["sec.company-tickers", "sec.companyfacts-aapl"]);
  const data = dataOf(await service.call("sec-metrics", { ticker: "aapl" }));
  assert.equal(data.cik, "0000320193");
  assert.equal(data.name, "Apple Inc.");
  const by = Object.fromEntries(data.metrics.map((m: any) => [m.name, m]));
  // the quarter inside the 10-K and the 10-Q quarter are not fiscal years
  assert.deepEqual(by.revenue, {
    name: "revenue",
    concept: "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
    unit: "USD",
    value: "391035000000",
    periodStart: "2023-10-01",
    periodEnd: "2024-09-28",
    form: "10-K",
    filed: "2024-11-01",
    previousValue: "383285000000",
    changePercent: "2.022",
  });
  assert.equal(by.netIncome.changePercent, "-3.36");
  assert.equal(by.epsDiluted.value, "6.08");
  // balances: the 10-Q after the 10-K is the latest
  assert.equal(by.assets.value, "344085000000");
  assert.equal(by.assets.periodEnd, "2024-12-28");
  assert.equal(by.sharesOutstanding.concept, "dei:EntityCommonStockSharesOutstanding");
  assert.equal(data.netMarginPercent, "23.9713");
});

test("sec-metrics: an unknown ticker is a 404; SEC refusing is a 502", async (t) => {
  const { service } = await marketService(
    t,
    ["sec.company-tickers", failing("/sec-data/api/xbrl/companyfacts/CIK0000789019.json", 403, SEC_DOCS)],
    { reuse: true },
  );
  assert.equal((await service.call("sec-metrics", { ticker: "NOSUCH" })).status, 404);
  expectUpstreamFailure(await service.call("sec-metrics", { ticker: "MSFT" }));
});

test("sec-metrics: ticker is required and checked before any call", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/sec-metrics"), "ticker");
  await expectFree400(await service.request("/v1/sec-metrics?ticker=AAPL%3B1"), "ticker");
  await expectFree400(await service.request("/v1/sec-metrics?ticker=ABCDEFGHIJK"), "ticker");
  assert.equal(api.calls.length, 0);
});
