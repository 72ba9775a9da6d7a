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
import rxnorm from "../../../plugins/publicdata/rxnorm.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_RXNAV_URL: `${url}/REST` });
const docs = "https://lhncbc.nlm.nih.gov/RxNav/APIs/RxNormAPIs.html";

test("rxnorm: a name becomes its concept with ingredients, brands and drug forms", async (t) => {
  const api = await serveFixtures(t, ["rxnav.lipitor-id", "rxnav.lipitor-properties", "rxnav.lipitor-related"], {
    dir,
  });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("rxnorm", rxnorm.example.input)),
    rxnorm.example.output,
  );
});

test("rxnorm: an unknown name is a 404 after one request", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (no match: idGroup without rxnormId)`,
      request: { method: "GET", path: "/REST/rxcui.json?name=zzqxdrug&search=2" },
      response: { status: 200, body: { idGroup: { name: "zzqxdrug" } } },
    },
  ]);
  expectNotFound(await (await serviceFor(api.url)).call("rxnorm", { name: "zzqxdrug" }));
  assert.equal(api.calls.length, 1);
});

test("rxnorm: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/REST/rxcui.json?name=Lipitor&search=2", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("rxnorm", rxnorm.example.input));
});

test("rxnorm: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/rxnorm"), "name");
  await expectFree400(await service.request("/v1/rxnorm?name=a"), "name");
  await expectFree400(await service.request("/v1/rxnorm?name=aspirin%3Cscript%3E"), "name");
  assert.equal(api.calls.length, 0);
});
