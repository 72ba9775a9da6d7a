import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import ipos from "../../../plugins/market/ipos.ts";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService } from "./_market.ts";

const NOW = Date.parse("2025-08-18T12:00:00Z");
const SEC_DOCS =
  "https://www.sec.gov/os/accessing-edgar-data (403 without a User-Agent naming a contact; 10 requests/s)";

test("ipos: S-1, F-1 and 424B4 filings of the last 30 days, one row per filing, newest first", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service } = await marketService(t, ["sec.efts-ipos-30d"], { reuse: true });
  const data = dataOf(await service.call("ipos", {}));
  assert.equal(data.from, "2025-07-19");
  assert.equal(data.to, "2025-08-18");
  // the S-1 and its consent exhibit are one filing
  assert.deepEqual(
    data.filings.map((f: any) => `${f.filed} ${f.form} ${f.stage} ${f.company}`),
    [
      "2025-08-14 S-1 registered Acorn Robotics Holdings, Inc.",
      "2025-08-07 F-1/A registered Nordhavn Shipping Ltd",
      "2025-08-04 S-1/A registered Bullish",
      "2025-08-01 424B4 priced Figma, Inc.",
    ],
  );
  assert.deepEqual(data.filings[3], {
    company: "Figma, Inc.",
    tickers: ["FIG"],
    cik: "0001579878",
    form: "424B4",
    stage: "priced",
    filed: "2025-08-01",
    accession: "0001193125-25-170214",
    location: "San Francisco, CA",
    incorporatedIn: "DE",
    url: "https://www.sec.gov/Archives/edgar/data/1579878/000119312525170214/0001193125-25-170214-index.htm",
  });
  assert.deepEqual(data.filings[2].tickers, ["BLSH", "BLSH-WT"]);
  assert.deepEqual(data.filings[0].tickers, []);
  assert.deepEqual(dataOf(await service.call("ipos", { limit: 1 })).filings.length, 1);
});

test("ipos: SEC refusing is a 502", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const path =
    "/sec-efts/LATEST/search-index?q=&forms=S-1,F-1,424B4&dateRange=custom&startdt=2025-08-11&enddt=2025-08-18";
  const { service } = await marketService(t, [failing(path, 403, SEC_DOCS)], { reuse: true });
  expectUpstreamFailure(await service.call("ipos", { days: 7 }));
});

test("ipos: days 1-90 and limit 1-100 checked before any call; defaults 30 and 25", async (t) => {
  const { service, api } = await marketService(t, []);
  await expectFree400(await service.request("/v1/ipos?days=0"), "days");
  await expectFree400(await service.request("/v1/ipos?days=91"), "days");
  await expectFree400(await service.request("/v1/ipos?limit=101"), "limit");
  assert.equal(api.calls.length, 0);
  assert.deepEqual(v.parse(ipos.input, {}), { days: 30, limit: 25 });
  assert.equal(ipos.cacheTtl, 3600);
});
