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
import carbon from "../../../plugins/publicdata/carbon.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_CARBON_INTENSITY_URL: url });
const docs = "https://carbon-intensity.github.io/api-definitions/";

test("carbon: a postcode's regional forecast and mix", async (t) => {
  const api = await serveFixtures(t, ["carbon-intensity.rg10"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("carbon", { postcode: "rg10" }));
  assert.deepEqual(data, carbon.example.output);
});

test("carbon: the national figure carries the metered actual and the national mix", async (t) => {
  const api = await serveFixtures(t, ["carbon-intensity.national", "carbon-intensity.generation"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("carbon", {}));
  assert.deepEqual(
    [data.scope, data.region, data.from, data.forecast, data.actual, data.index],
    ["national", null, "2025-01-15T12:00:00.000Z", 156, 161, "moderate"],
  );
  assert.deepEqual(data.generationMix[0], { fuel: "gas", percent: 35.1 });
  assert.equal(api.calls.length, 2);
});

test("carbon: a postcode area outside GB is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (an unknown postcode answers 400 with error.code and error.message)`,
      request: { method: "GET", path: "/regional/postcode/ZZ9" },
      response: {
        status: 400,
        body: { error: { code: "400 Bad Request", message: "Please enter a valid UK outward postcode i.e. RG41" } },
      },
    },
  ]);
  expectNotFound(await (await serviceFor(api.url)).call("carbon", { postcode: "ZZ9" }));
});

test("carbon: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/regional/regionid/16", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("carbon", { region: 16 }));
});

test("carbon: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/carbon?postcode=RG10%201AA"), "postcode");
  await expectFree400(await service.request("/v1/carbon?region=18"), "region");
  const both = await service.call("carbon", { postcode: "RG10", region: 12 });
  assert.equal(both.status, 400);
  assert.equal(api.calls.length, 0);
});
