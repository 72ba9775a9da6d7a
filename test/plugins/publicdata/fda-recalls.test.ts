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
import fdaRecalls from "../../../plugins/publicdata/fda-recalls.ts";

const serviceFor = (url: string, env: Record<string, string> = {}) =>
  publicdataService({ UPSTREAM_OPENFDA_URL: url, ...env });
const docs = "https://open.fda.gov/apis/query-syntax/";
const path = (query: Record<string, string>) => `/device/enforcement.json?${new URLSearchParams(query)}`;

test("fda-recalls: enforcement reports in our shape, newest first", async (t) => {
  const api = await serveFixtures(t, ["openfda.food-listeria-class-i"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("fda-recalls", fdaRecalls.example.input)),
    fdaRecalls.example.output,
  );
});

test("fda-recalls: firm and date filters, and the optional key as api_key", async (t) => {
  const body = (await import("./fixtures/openfda.food-listeria-class-i.json", { with: { type: "json" } })).default
    .response.body;
  const api = await serveFixtures(t, [
    {
      source: `${docs} (field:"phrase", [from TO to] ranges, AND)`,
      request: {
        method: "GET",
        path: path({
          search: 'recalling_firm:"Medtronic" AND report_date:[20240101 TO 29991231]',
          sort: "report_date:desc",
          limit: "20",
        }),
      },
      response: { status: 200, body },
    },
  ]);
  const service = await serviceFor(api.url, { UPSTREAM_OPENFDA_KEY: "test-openfda-key" });
  const data = dataOf(await service.call("fda-recalls", { type: "device", firm: "Medtronic", since: "2024-01-01" }));
  assert.equal(data.recalls.length, 1);
  assert.equal(new URL(api.calls[0].path, api.url).searchParams.get("api_key"), "test-openfda-key");
});

test("fda-recalls: no match (openFDA's 404) is an empty list", async (t) => {
  const api = await serveFixtures(t, [
    {
      source:
        "https://open.fda.gov/apis/query-parameters/ (no results: HTTP 404 {error:{code:NOT_FOUND, message:'No matches found!'}})",
      request: { method: "GET", path: "/food/enforcement.json?search=%22zzqx%22&sort=report_date:desc&limit=20" },
      response: { status: 404, body: { error: { code: "NOT_FOUND", message: "No matches found!" } } },
    },
  ]);
  assert.deepEqual(dataOf(await (await serviceFor(api.url)).call("fda-recalls", { q: "zzqx" })), {
    total: 0,
    updated: null,
    recalls: [],
  });
});

test("fda-recalls: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/food/enforcement.json?sort=report_date:desc&limit=20", docs)], {
    reuse: true,
  });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("fda-recalls", {}));
});

test("fda-recalls: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/fda-recalls?type=cosmetics"), "type");
  await expectFree400(await service.request("/v1/fda-recalls?q=a%22%20OR%20_exists_:x"), "q");
  await expectFree400(await service.request("/v1/fda-recalls?classification=IV"), "classification");
  assert.equal(api.calls.length, 0);
});
