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
import vin from "../../../plugins/publicdata/vin.ts";
import { checkDigitValid } from "../../../plugins/publicdata/_vin-check.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_NHTSA_VPIC_URL: `${url}/api` });
const docs = "https://vpic.nhtsa.dot.gov/api/";

test("vin: a decoded VIN in our shape, unknown fields null", async (t) => {
  const api = await serveFixtures(t, ["nhtsa-vpic.accord"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("vin", { vin: "1hgcm82633a004352" })),
    vin.example.output,
  );
});

test("vin: the check digit follows the North American rule", () => {
  assert.equal(checkDigitValid("1HGCM82633A004352"), true);
  assert.equal(checkDigitValid("1HGCM82643A004352"), false);
  assert.equal(checkDigitValid("11111111111111111"), true);
});

test("vin: the model year is passed on when given", async (t) => {
  const body = (await import("./fixtures/nhtsa-vpic.accord.json", { with: { type: "json" } })).default.response.body;
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: { method: "GET", path: "/api/vehicles/DecodeVinValues/1HGCM82633A004352?format=json&modelyear=2003" },
      response: { status: 200, body },
    },
  ]);
  assert.equal(
    dataOf(await (await serviceFor(api.url)).call("vin", { vin: "1HGCM82633A004352", modelYear: 2003 })).modelYear,
    2003,
  );
});

test("vin: a VIN NHTSA cannot decode is a 404", async (t) => {
  const api = await serveFixtures(t, ["nhtsa-vpic.undecodable"], { dir });
  expectNotFound(await (await serviceFor(api.url)).call("vin", { vin: "ZZZZZZZZZZZZZZZZZ" }));
});

test("vin: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [failing("GET", "/api/vehicles/DecodeVinValues/1HGCM82633A004352?format=json", docs)],
    { reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("vin", { vin: "1HGCM82633A004352" }));
});

test("vin: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/vin"), "vin");
  await expectFree400(await service.request("/v1/vin?vin=1HGCM82633A00435"), "vin");
  await expectFree400(await service.request("/v1/vin?vin=1HGCM82633A0O4352"), "vin");
  await expectFree400(await service.request("/v1/vin?vin=1HGCM82633A004352&modelYear=1970"), "modelYear");
  assert.equal(api.calls.length, 0);
});
