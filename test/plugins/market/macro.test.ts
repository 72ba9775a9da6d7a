import { test } from "node:test";
import assert from "node:assert/strict";
import { dataOf, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const NOW = Date.parse("2025-01-15T12:00:00.000Z");
const IDS = ["CPIAUCSL", "CPILFESL", "PCEPI", "UNRATE", "FEDFUNDS", "DGS2", "DGS10", "T10Y2Y", "GDPC1"];
const FRED_DOCS = "https://fred.stlouisfed.org/docs/api/fred/ (the CSV download answers 5xx when FRED is down)";
const path = (id: string) => `/fred/fredgraph.csv?id=${id}&cosd=2023-05-26`;

test("macro: every series' latest value, the change and year-over-year for index series", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(
    t,
    IDS.map((id) => `fred.${id.toLowerCase()}`),
  );
  const data = dataOf(await service.call("macro", {}));
  assert.deepEqual(data.sources, { answered: IDS, missing: [] });
  const by = Object.fromEntries(data.indicators.map((x: any) => [x.id, x]));
  // 316.441 / 308.087 (2023-11) - 1
  assert.deepEqual(by.CPIAUCSL, {
    id: "CPIAUCSL",
    name: "Consumer price index (all items)",
    unit: "index 1982-84=100",
    date: "2024-11-01",
    value: "316.441",
    previous: { date: "2024-10-01", value: "315.454" },
    change: "0.987",
    yoyPercent: "2.7116",
    url: "https://fred.stlouisfed.org/series/CPIAUCSL",
  });
  assert.equal(by.UNRATE.value, "4.1");
  assert.equal(by.UNRATE.change, "-0.1");
  assert.equal(by.UNRATE.yoyPercent, null);
  // "." (a holiday) is skipped
  assert.deepEqual(by.DGS10.previous, { date: "2025-01-10", value: "4.77" });
  // GDP: 2024-07-01 against 2023-07-01
  assert.equal(by.GDPC1.yoyPercent, "2.7189");
});

test("macro: a series that fails is listed as missing, the rest answer; all failing is a 502", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(
    t,
    [failing(path("CPIAUCSL"), 500, FRED_DOCS), ...IDS.slice(1).map((id) => `fred.${id.toLowerCase()}`)],
    { reuse: true },
  );
  const data = dataOf(await service.call("macro", {}));
  assert.deepEqual(data.sources.missing, [{ venue: "CPIAUCSL", reason: "fred answered 500" }]);
  assert.equal(data.indicators.length, 8);
});

test("macro: FRED down for every series is a 502", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(
    t,
    IDS.map((id) => failing(path(id), 503, FRED_DOCS)),
    { reuse: true },
  );
  expectUpstreamFailure(await service.call("macro", {}));
});
