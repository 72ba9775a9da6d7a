import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import zipcodeEndpoint from "../../../plugins/publicdata/zipcode.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["publicdata"], env: { UPSTREAM_ZIPPOPOTAM_URL: url } });

test("zipcode: the places of a postal code", async (t) => {
  const api = await serveFixtures(t, ["zippopotam.us-90210"], { dir });
  const out = await (await serviceFor(api.url)).call(zipcodeEndpoint, { country: "US", code: "90210" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), {
    postalCode: "90210",
    country: "United States",
    countryCode: "US",
    places: [{ name: "Beverly Hills", state: "California", stateCode: "CA", lat: 34.0901, lon: -118.4065 }],
  });
});

test("zipcode: an unknown code is a 404", async (t) => {
  const api = await serveFixtures(t, ["zippopotam.not-found"], { dir });
  assert.equal((await (await serviceFor(api.url)).call(zipcodeEndpoint, { country: "us", code: "00000" })).status, 404);
});

test("zipcode: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://www.zippopotam.us/",
        request: { method: "GET", path: "/us/90210" },
        response: { status: 502, body: "Bad Gateway" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(zipcodeEndpoint, { country: "US", code: "90210" });
  assert.equal(out.status, 502);
});

test("zipcode: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/zipcode?code=90210"), "country");
  await expectFree400(await service.request("/v1/zipcode?country=US&code=..%2F.."), "code");
  await expectFree400(await service.request("/v1/zipcode?country=USA&code=90210"), "country");
  assert.equal(api.calls.length, 0);
});
