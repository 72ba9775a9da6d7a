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
import chembl from "../../../plugins/publicdata/chembl.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_CHEMBL_URL: `${url}/chembl/api/data` });
const docs = "https://chembl.gitbook.io/chembl-interface-documentation/web-services/chembl-data-web-services";

test("chembl: one molecule by id, in our shape", async (t) => {
  const api = await serveFixtures(t, ["chembl.chembl25"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("chembl", { id: "chembl25" }));
  assert.deepEqual(data, chembl.example.output);
});

test("chembl: a search lists matches with ChEMBL's total", async (t) => {
  const api = await serveFixtures(t, ["chembl.search-ibuprofen"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("chembl", { q: "ibuprofen", limit: 1 }));
  assert.equal(data.total, 22);
  assert.deepEqual(
    data.molecules.map((m: any) => [m.id, m.title, m.maxPhase, m.properties.molecularWeight, m.atc[0], m.inchiKey]),
    [["CHEMBL521", "IBUPROFEN", "4.0", "206.28", "C01EB16", "HEFNNWSXXWATRW-UHFFFAOYSA-N"]],
  );
});

test("chembl: an unknown id is a 404, a search with no match an empty list", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (an unknown id answers 404 with error_message)`,
      request: { method: "GET", path: "/chembl/api/data/molecule/CHEMBL999999999.json" },
      response: {
        status: 404,
        body: {
          error_message: "No resource found for URL: /chembl/api/data/molecule/CHEMBL999999999.json",
          error_code: 404,
        },
      },
    },
    {
      source: docs,
      request: { method: "GET", path: "/chembl/api/data/molecule/search.json?q=zzxqv&limit=5" },
      response: {
        status: 200,
        body: { molecules: [], page_meta: { limit: 5, next: null, offset: 0, previous: null, total_count: 0 } },
      },
    },
  ]);
  const service = await serviceFor(api.url);
  expectNotFound(await service.call("chembl", { id: "CHEMBL999999999" }));
  assert.deepEqual(dataOf(await service.call("chembl", { q: "zzxqv" })), { total: 0, molecules: [] });
});

test("chembl: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/chembl/api/data/molecule/CHEMBL25.json", docs)], {
    reuse: true,
  });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("chembl", { id: "CHEMBL25" }));
});

test("chembl: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/chembl"), "id");
  await expectFree400(await service.request("/v1/chembl?id=aspirin"), "id");
  await expectFree400(await service.request("/v1/chembl?id=CHEMBL25&q=aspirin"), "q");
  await expectFree400(await service.request("/v1/chembl?q=aspirin&limit=50"), "limit");
  assert.equal(api.calls.length, 0);
});
