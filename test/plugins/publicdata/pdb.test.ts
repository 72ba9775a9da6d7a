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
import pdb from "../../../plugins/publicdata/pdb.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_RCSB_DATA_URL: `${url}/rest/v1` });
const docs = "https://data.rcsb.org/redoc/index.html";

test("pdb: an entry in our shape, dates in ISO 8601", async (t) => {
  const api = await serveFixtures(t, ["rcsb-data.4hhb"], { dir });
  assert.deepEqual(dataOf(await (await serviceFor(api.url)).call("pdb", { id: "4hhb" })), pdb.example.output);
});

test("pdb: an unknown id is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (404 {status, message})`,
      request: { method: "GET", path: "/rest/v1/core/entry/9ZZZ" },
      response: { status: 404, body: { status: 404, message: "No data found for entry with id: 9ZZZ" } },
    },
  ]);
  expectNotFound(await (await serviceFor(api.url)).call("pdb", { id: "9ZZZ" }));
});

test("pdb: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/rest/v1/core/entry/4HHB", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("pdb", { id: "4HHB" }));
});

test("pdb: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  for (const id of ["", "HHB", "44HHB", "..%2F1"]) await expectFree400(await service.request(`/v1/pdb?id=${id}`), "id");
  assert.equal(api.calls.length, 0);
});
