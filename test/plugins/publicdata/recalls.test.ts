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
import recalls from "../../../plugins/publicdata/recalls.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_NHTSA_URL: url });
const docs = "https://www.nhtsa.gov/nhtsa-datasets-and-apis#recalls";

test("recalls: campaigns in our shape, dates in ISO 8601", async (t) => {
  const api = await serveFixtures(t, ["nhtsa.accord-2003"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("recalls", recalls.example.input)),
    recalls.example.output,
  );
});

test("recalls: an unknown model is an empty list", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (no campaigns: Count 0, empty results)`,
      request: { method: "GET", path: "/recalls/recallsByVehicle?make=Honda&model=Nothing&modelYear=2003" },
      response: { status: 200, body: { Count: 0, Message: "Results returned successfully", results: [] } },
    },
  ]);
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("recalls", { make: "Honda", model: "Nothing", modelYear: 2003 }))
      .recalls,
    [],
  );
});

test("recalls: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [failing("GET", "/recalls/recallsByVehicle?make=Honda&model=Accord&modelYear=2003", docs)],
    { reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("recalls", recalls.example.input));
});

test("recalls: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/recalls?make=Honda&model=Accord"), "modelYear");
  await expectFree400(await service.request("/v1/recalls?make=Honda&model=%3Cscript%3E&modelYear=2003"), "model");
  await expectFree400(await service.request("/v1/recalls?model=Accord&modelYear=2003"), "make");
  assert.equal(api.calls.length, 0);
});
