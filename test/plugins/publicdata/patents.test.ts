import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import {
  dataOf,
  expectFree400,
  expectNotFound,
  expectUpstreamFailure,
  failing,
  fixtureDir as dir,
  publicdataService,
} from "./_sg-expect.ts";
import patents from "../../../plugins/publicdata/patents.ts";

const key = "test-uspto-key";
const serviceFor = (url: string) => publicdataService({ UPSTREAM_USPTO_URL: url, UPSTREAM_USPTO_KEY: key });
const docs = "https://data.uspto.gov/apis/patent-file-wrapper/search";
const noMatch = {
  code: 404,
  error: "Not Found",
  errorDetails: "No matching records found, refine your search criteria and try again.",
  requestIdentifier: "6f1c0c3e-5b0e-4b43-9a55-3f3f1d0d2b7e",
};

test("patents: one application in our shape, the key in the x-api-key header", async (t) => {
  const api = await serveFixtures(t, ["uspto.application-14104993"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("patents", { application: "14104993" }));
  assert.deepEqual(data, patents.example.output);
  assert.equal(api.calls[0].headers["x-api-key"], key);
});

test("patents: a search ANDs the terms, newest filings first", async (t) => {
  const record = (await import("./fixtures/uspto.application-14104993.json", { with: { type: "json" } })).default
    .response.body;
  const api = await serveFixtures(t, [
    {
      source: `${docs} (GET /api/v1/patent/applications/search with q, rangeFilters, sort, offset, limit)`,
      request: {
        method: "GET",
        path:
          "/api/v1/patent/applications/search?" +
          new URLSearchParams({
            q: 'bipolar transistor AND applicationMetaData.applicantBag.applicantNameText:"STMicroelectronics" AND applicationMetaData.applicationStatusDescriptionText:"Patented Case"',
            rangeFilters: "applicationMetaData.filingDate 2013-01-01:9999-12-31",
            sort: "applicationMetaData.filingDate desc",
            offset: "0",
            limit: "5",
          }),
      },
      response: { status: 200, body: { ...record, count: 37 } },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url)).call("patents", {
      q: "bipolar transistor",
      applicant: "STMicroelectronics",
      granted: true,
      since: "2013-01-01",
      limit: 5,
    }),
  );
  assert.equal(data.total, 37);
  assert.deepEqual(
    data.patents.map((p: any) => [p.id, p.patentNumber]),
    [["14104993", "9362380"]],
  );
});

test("patents: a search matching nothing is an empty list; an unknown application is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (no match: 404 with errorDetails)`,
      request: {
        method: "GET",
        path: "/api/v1/patent/applications/search?q=zzzqqq&sort=applicationMetaData.filingDate desc&offset=0&limit=10",
      },
      response: { status: 404, body: noMatch },
    },
    {
      source: `${docs} (unknown application number: 404)`,
      request: { method: "GET", path: "/api/v1/patent/applications/99999999" },
      response: { status: 404, body: noMatch },
    },
  ]);
  const service = await serviceFor(api.url);
  assert.deepEqual(dataOf(await service.call("patents", { q: "zzzqqq" })), { total: 0, patents: [] });
  expectNotFound(await service.call("patents", { application: "99999999" }));
});

test("patents: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/api/v1/patent/applications/14104993", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("patents", { application: "14104993" }));
});

test("patents: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/patents?application=123"), "application");
  await expectFree400(await service.request("/v1/patents?q=a%22%20OR%20*"), "q");
  await expectFree400(await service.request("/v1/patents?since=yesterday"), "since");
  const none = await service.call("patents", {});
  assert.equal(none.status, 400);
  assert.equal(api.calls.length, 0);
});

test("patents: without a key the endpoint is not mounted", async () => {
  const service = await publicdataService({});
  assert.ok(service.runtime.disabled.some((d: { name: string }) => d.name === "patents"));
  assert.ok(!service.runtime.endpoints.some((e) => e.name === "patents"));
});
