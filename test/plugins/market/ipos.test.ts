import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import ipos from "../../../plugins/market/ipos.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400, expectUpstreamFailure, failing, marketService, secUserAgent } from "./_market.ts";

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

const EFTS_FAQ =
  "https://www.sec.gov/edgar/search/efts-faq.html (search-index answers Elasticsearch hits 100 a page, hits.total {value, relation}; `from` pages on)";
const IPOS_PATH =
  "/sec-efts/LATEST/search-index?q=&forms=S-1,F-1,424B4&dateRange=custom&startdt=2025-07-19&enddt=2025-08-18";
/** One EFTS hit: a document of a filing (several documents of one filing share its adsh). */
const hit = (adsh: string, form: string, fileDate: string, name: string, document: string) => ({
  _index: "edgar_file",
  _id: `${adsh}:${document}`,
  _score: 1,
  _source: {
    ciks: ["0001234567"],
    display_names: [`${name}  (CIK 0001234567)`],
    form,
    root_forms: [form],
    file_date: fileDate,
    adsh,
    biz_locations: ["Austin, TX"],
    inc_states: ["DE"],
    file_type: form,
  },
});
const page = (hits: unknown[], total: number, from: number) => ({
  source: EFTS_FAQ,
  request: { method: "GET", path: from ? `${IPOS_PATH}&from=${from}` : IPOS_PATH },
  response: {
    status: 200,
    body: { took: 12, timed_out: false, hits: { total: { value: total, relation: "eq" }, max_score: 1, hits } },
  },
});

test("ipos: every page of EDGAR's answer is read, so the newest filing on the last page is first", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const older = Array.from({ length: 100 }, (_, i) =>
    hit("0001234567-25-000100", "S-1", "2025-07-21", "Older Registrant Inc.", `ex${i}.htm`),
  );
  const newest = [
    hit("0009999999-25-000001", "424B4", "2025-08-15", "Newest Listing Corp", "d1.htm"),
    hit("0001234567-25-000100", "S-1", "2025-07-21", "Older Registrant Inc.", "ex100.htm"),
  ];
  const { service, api } = await marketService(t, [page(older, 102, 0), page(newest, 102, 100)]);
  const data = dataOf(await service.call("ipos", {}));
  assert.equal(api.calls.length, 2);
  assert.equal(data.complete, true);
  assert.deepEqual(
    data.filings.map((f: any) => `${f.filed} ${f.form} ${f.company}`),
    ["2025-08-15 424B4 Newest Listing Corp", "2025-07-21 S-1 Older Registrant Inc."],
  );
});

test("ipos: EDGAR's User-Agent setting is sent; without it ipos and sec-metrics are unmounted with the reason", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: NOW });
  const { service, api } = await marketService(t, ["sec.efts-ipos-30d"]);
  dataOf(await service.call("ipos", {}));
  assert.equal(api.calls[0].headers["user-agent"], secUserAgent);
  const bare = await startTestService({ plugins: ["market"] });
  for (const name of ["ipos", "sec-metrics"]) {
    assert.ok(!bare.runtime.endpoints.some((e) => e.name === name), name);
    assert.match(bare.runtime.disabled.find((d: { name: string }) => d.name === name)?.reason ?? "", /SEC_USER_AGENT/);
  }
  await assert.rejects(
    startTestService({ plugins: ["market"], env: { SEC_USER_AGENT: "x402-agent-services/1.0" } }),
    /SEC_USER_AGENT must be a User-Agent naming a contact e-mail/,
  );
});
