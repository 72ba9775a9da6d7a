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
import rxterms from "../../../plugins/publicdata/rxterms.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_NLM_CLINICAL_TABLES_URL: `${url}/api` });
const docs = "https://clinicaltables.nlm.nih.gov/apidoc/rxterms/v3/doc.html";

test("rxterms: the positional answer becomes names with strengths and RxCUIs", async (t) => {
  const api = await serveFixtures(t, ["nlm-clinical-tables.lipitor"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("rxterms", rxterms.example.input)),
    rxterms.example.output,
  );
});

test("rxterms: no match is an empty list", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (no match: [0, [], null, []])`,
      request: { method: "GET", path: "/api/rxterms/v3/search?terms=zzqx&ef=STRENGTHS_AND_FORMS,RXCUIS&maxList=10" },
      response: { status: 200, body: [0, [], null, []] },
    },
  ]);
  assert.deepEqual(dataOf(await (await serviceFor(api.url)).call("rxterms", { q: "zzqx" })), { total: 0, drugs: [] });
});

test("rxterms: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [failing("GET", "/api/rxterms/v3/search?terms=lipitor&ef=STRENGTHS_AND_FORMS,RXCUIS&maxList=1", docs)],
    { reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("rxterms", rxterms.example.input));
});

test("rxterms: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/rxterms"), "q");
  await expectFree400(await service.request("/v1/rxterms?q=a"), "q");
  await expectFree400(await service.request("/v1/rxterms?q=lipitor&limit=500"), "limit");
  assert.equal(api.calls.length, 0);
});
