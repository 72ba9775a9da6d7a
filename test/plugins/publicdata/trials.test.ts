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
import trials from "../../../plugins/publicdata/trials.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_CLINICALTRIALS_URL: `${url}/api/v2` });
const docs = "https://clinicaltrials.gov/data-api/api";

test("trials: one study by NCT number in our shape", async (t) => {
  const api = await serveFixtures(t, ["clinicaltrials.nct04368728"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("trials", trials.example.input)),
    trials.example.output,
  );
});

test("trials: a search passes query, status and phase filters and reads totalCount", async (t) => {
  const study = (await import("./fixtures/clinicaltrials.nct04368728.json", { with: { type: "json" } })).default
    .response.body;
  const api = await serveFixtures(t, [
    {
      source: `${docs} (GET /studies: query.cond, query.intr, filter.overallStatus, filter.advanced=AREA[Phase]..., pageSize, countTotal; answers {studies[], nextPageToken, totalCount})`,
      request: {
        method: "GET",
        path: `/api/v2/studies?${new URLSearchParams({ "query.cond": "COVID-19", "query.intr": "BNT162b2", "filter.overallStatus": "COMPLETED", "filter.advanced": "AREA[Phase]PHASE3", pageSize: "5", countTotal: "true" })}`,
      },
      response: { status: 200, body: { studies: [study], totalCount: 12, nextPageToken: "ZVNj7o2Elu8o3lpoWsOrtQ" } },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url)).call("trials", {
      condition: "COVID-19",
      intervention: "BNT162b2",
      status: "COMPLETED",
      phase: "PHASE3",
      limit: 5,
    }),
  );
  assert.equal(data.total, 12);
  assert.deepEqual(
    data.trials.map((x: any) => x.id),
    ["NCT04368728"],
  );
});

test("trials: an unknown NCT number is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (unknown nctId: 404)`,
      request: { method: "GET", path: "/api/v2/studies/NCT99999999" },
      response: { status: 404, body: "Study not found" },
    },
  ]);
  expectNotFound(await (await serviceFor(api.url)).call("trials", { id: "NCT99999999" }));
});

test("trials: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/api/v2/studies/NCT04368728", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("trials", trials.example.input));
});

test("trials: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/trials?id=NCT123"), "id");
  await expectFree400(await service.request("/v1/trials?status=OPEN"), "status");
  await expectFree400(await service.request("/v1/trials?phase=PHASE5"), "phase");
  await expectFree400(await service.request("/v1/trials?limit=51"), "limit");
  assert.equal(api.calls.length, 0);
});
