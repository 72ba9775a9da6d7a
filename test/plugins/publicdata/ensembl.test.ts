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
import ensembl from "../../../plugins/publicdata/ensembl.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_ENSEMBL_URL: url });
const docs = "https://rest.ensembl.org/documentation/info/lookup";

test("ensembl: a gene by symbol in our shape", async (t) => {
  const api = await serveFixtures(t, ["ensembl.tp53"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("ensembl", ensembl.example.input)),
    ensembl.example.output,
  );
});

test("ensembl: by id, the version suffix dropped", async (t) => {
  const body = (await import("./fixtures/ensembl.tp53.json", { with: { type: "json" } })).default.response.body;
  const api = await serveFixtures(t, [
    {
      source: docs,
      request: { method: "GET", path: "/lookup/id/ENSG00000141510?content-type=application/json" },
      response: { status: 200, body },
    },
  ]);
  assert.equal(dataOf(await (await serviceFor(api.url)).call("ensembl", { id: "ENSG00000141510.19" })).symbol, "TP53");
});

test("ensembl: an unknown symbol (Ensembl's 400) is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (an unknown symbol answers 400 {error: "No valid lookup found for symbol ..."})`,
      request: { method: "GET", path: "/lookup/symbol/homo_sapiens/NOTAGENE1?content-type=application/json" },
      response: { status: 400, body: { error: "No valid lookup found for symbol NOTAGENE1" } },
    },
  ]);
  expectNotFound(await (await serviceFor(api.url)).call("ensembl", { symbol: "NOTAGENE1" }));
});

test("ensembl: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [failing("GET", "/lookup/symbol/homo_sapiens/TP53?content-type=application/json", docs)],
    { reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("ensembl", ensembl.example.input));
});

test("ensembl: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/ensembl?symbol=TP53&species=Homo%20sapiens"), "species");
  await expectFree400(await service.request("/v1/ensembl?id=ENSG123"), "id");
  await expectFree400(await service.request("/v1/ensembl?symbol=..%2Finfo"), "symbol");
  assert.equal((await service.call("ensembl", {})).status, 400);
  assert.equal(api.calls.length, 0);
});
