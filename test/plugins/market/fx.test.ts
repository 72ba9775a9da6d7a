import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";
import { issuesOf } from "../../helpers/expect.ts";
import fxEndpoint from "../../../plugins/market/fx.ts";
import fxHistory from "../../../plugins/market/fx-history.ts";

test("fx: USD to EUR by default from both sources, Frankfurter's rate first, amount converted in decimal", async (t) => {
  const { service } = await marketService(t, ["frankfurter.latest-usd-eur", "exchangerate-api.latest-usd"]);
  assert.deepEqual(dataOf(await service.call(fxEndpoint, { amount: 100 })), {
    from: "USD",
    to: "EUR",
    rate: 0.97182,
    date: "2025-01-14",
    source: "frankfurter",
    amount: 100,
    converted: "97.182",
    inverse: "1.0289971394",
    quotes: [
      { venue: "frankfurter", rate: 0.97182, date: "2025-01-14" },
      { venue: "exchangerate-api", rate: 0.971605, date: "2025-01-15" },
    ],
    sources: { answered: ["frankfurter", "exchangerate-api"], missing: [] },
  });
});

test("fx: Frankfurter down, ExchangeRate-API answers and the answer says so", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing("/frankfurter/v1/latest?base=USD&symbols=JPY", 503, "https://frankfurter.dev/"),
      "exchangerate-api.latest-usd",
    ],
    { reuse: true },
  );
  const data = dataOf(await service.call(fxEndpoint, { to: "jpy" }));
  assert.equal(data.rate, 157.903421);
  assert.equal(data.source, "exchangerate-api");
  assert.equal(data.converted, "157.903421");
  assert.deepEqual(data.sources.missing, [{ venue: "frankfurter", reason: "frankfurter answered 503" }]);
});

test("fx: both down is a 502; a currency no one quotes is a 404", async (t) => {
  const { service } = await marketService(
    t,
    [
      failing("/frankfurter/v1/latest?base=USD&symbols=EUR", 500, "https://frankfurter.dev/"),
      failing("/exchangerate-api/latest/USD", 500, "https://www.exchangerate-api.com/docs/free"),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call(fxEndpoint, {}));
  const { service: other } = await marketService(t, [
    "frankfurter.latest-usd-xyz",
    "exchangerate-api.latest-usd-for-xyz",
  ]);
  assert.equal((await other.call(fxEndpoint, { to: "XYZ" })).status, 404);
});

test("fx: a code that is not three letters is a free 400", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/fx?from=US"), "from");
  await expectFree400(await service.request("/v1/fx?to=EURO"), "to");
  await expectFree400(await service.request("/v1/fx?amount=-1"), "amount");
  assert.equal(api.calls.length, 0);
});

test("fx-history: one date, base USD by default", async (t) => {
  const { service } = await marketService(t, ["frankfurter.day-usd-eur-gbp", "frankfurter.day-weekend"]);
  assert.deepEqual(dataOf(await service.call(fxHistory, { date: "2025-01-14", symbols: "eur,gbp" })), {
    base: "USD",
    days: [{ date: "2025-01-14", rates: { EUR: 0.97182, GBP: 0.81921 } }],
  });
  const weekend = dataOf(await service.call(fxHistory, { date: "2025-01-12" }));
  assert.equal(weekend.days[0].date, "2025-01-10");
});

test("fx-history: a series between start and end, oldest first", async (t) => {
  const { service } = await marketService(t, ["frankfurter.series-usd-eur"]);
  const data = dataOf(await service.call(fxHistory, { start: "2025-01-08", end: "2025-01-10", symbols: "EUR" }));
  assert.deepEqual(
    data.days.map((d: any) => [d.date, d.rates.EUR]),
    [
      ["2025-01-08", 0.96993],
      ["2025-01-09", 0.97068],
      ["2025-01-10", 0.97276],
    ],
  );
});

test("fx-history: Frankfurter down is a 502", async (t) => {
  const { service } = await marketService(
    t,
    [failing("/frankfurter/v1/2025-01-14?base=USD", 500, "https://frankfurter.dev/")],
    { reuse: true },
  );
  expectUpstreamFailure(await service.call(fxHistory, { date: "2025-01-14" }));
});

test("fx-history: conflicting or out-of-range dates are 400s and call nothing", async (t) => {
  const { service, api } = await marketService(t, []);
  for (const [input, field] of [
    [{ date: "2025-01-14", start: "2025-01-01" }, "date"],
    [{ end: "2025-01-10" }, "start"],
    [{ start: "2023-01-01", end: "2025-01-01" }, "end"],
    [{ start: "2025-02-01", end: "2025-01-01" }, "start"],
  ] as const) {
    const out = await service.call(fxHistory, input);
    assert.equal(out.status, 400, JSON.stringify(input));
    assert.ok(issuesOf(out).some((i: any) => i.field === field));
  }
  await expectFree400(await service.request("/v1/fx-history?date=14-01-2025"), "date");
  await expectFree400(await service.request("/v1/fx-history?symbols=EUR;GBP"), "symbols");
  assert.equal(api.calls.length, 0);
});
