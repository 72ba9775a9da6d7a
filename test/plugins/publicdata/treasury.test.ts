import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import {
  dataOf,
  expectFree400,
  expectUpstreamFailure,
  failing,
  fixtureDir as dir,
  publicdataService,
} from "./_sg-expect.ts";
import treasury from "../../../plugins/publicdata/treasury.ts";

const docs = "https://fiscaldata.treasury.gov/api-documentation/";
async function serviceFor(url: string) {
  const service = await publicdataService({ UPSTREAM_TREASURY_URL: `${url}/services/api/fiscal_service` });
  service.runtime.now = () => new Date("2025-01-15T12:00:00Z");
  return service;
}

test("treasury: month-end rates since N months back, and the latest debt", async (t) => {
  const api = await serveFixtures(t, ["treasury.avg-rates-dec-2024", "treasury.debt-latest"], { dir });
  assert.deepEqual(dataOf(await (await serviceFor(api.url)).call("treasury", { months: 1 })), treasury.example.output);
});

test("treasury: the default looks back 12 months and groups rows by record date", async (t) => {
  const rows = (await import("./fixtures/treasury.avg-rates-dec-2024.json", { with: { type: "json" } })).default
    .response.body;
  const older = rows.data.map((r: any) => ({ ...r, record_date: "2024-11-30", avg_interest_rate_amt: "4.000" }));
  const api = await serveFixtures(
    t,
    [
      {
        source: `${docs} (filter=record_date:gte:, sort=-record_date, page[size])`,
        request: {
          method: "GET",
          path: "/services/api/fiscal_service/v2/accounting/od/avg_interest_rates?filter=record_date:gte:2024-01-01&sort=-record_date&page[size]=1000",
        },
        response: { status: 200, body: { ...rows, data: [...rows.data, ...older] } },
      },
      "treasury.debt-latest",
    ],
    { dir },
  );
  const data = dataOf(await (await serviceFor(api.url)).call("treasury", {}));
  assert.deepEqual(
    data.months.map((m: any) => [m.date, m.rates.length]),
    [
      ["2024-12-31", 4],
      ["2024-11-30", 4],
    ],
  );
  assert.equal(data.months[1].rates[0].ratePercent, "4.000");
});

test("treasury: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      failing(
        "GET",
        "/services/api/fiscal_service/v2/accounting/od/avg_interest_rates?filter=record_date:gte:2024-12-01&sort=-record_date&page[size]=1000",
        docs,
      ),
      "treasury.debt-latest",
    ],
    { dir, reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("treasury", { months: 1 }));
});

test("treasury: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/treasury?months=0"), "months");
  await expectFree400(await service.request("/v1/treasury?months=121"), "months");
  await expectFree400(await service.request("/v1/treasury?months=twelve"), "months");
  assert.equal(api.calls.length, 0);
});
