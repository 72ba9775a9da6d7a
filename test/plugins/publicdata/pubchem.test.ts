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
import pubchem from "../../../plugins/publicdata/pubchem.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_PUBCHEM_URL: `${url}/rest/pug` });
const docs = "https://pubchem.ncbi.nlm.nih.gov/docs/pug-rest";
const propertiesPath = (subject: string) =>
  `/rest/pug/compound/${subject}/property/MolecularFormula,MolecularWeight,IUPACName,SMILES,ConnectivitySMILES,InChIKey,XLogP/JSON`;

test("pubchem: a compound by name, with its synonyms", async (t) => {
  const api = await serveFixtures(t, ["pubchem.aspirin-properties", "pubchem.aspirin-synonyms"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("pubchem", pubchem.example.input)),
    pubchem.example.output,
  );
});

test("pubchem: by CID; further matches are listed", async (t) => {
  const props = (await import("./fixtures/pubchem.aspirin-properties.json", { with: { type: "json" } })).default
    .response.body;
  const api = await serveFixtures(
    t,
    [
      {
        source: docs,
        request: { method: "GET", path: propertiesPath("cid/2244") },
        response: {
          status: 200,
          body: { PropertyTable: { Properties: [...props.PropertyTable.Properties, { CID: 517180 }] } },
        },
      },
      "pubchem.aspirin-synonyms",
    ],
    { dir },
  );
  const data = dataOf(await (await serviceFor(api.url)).call("pubchem", { cid: 2244 }));
  assert.equal(data.cid, 2244);
  assert.deepEqual(data.otherCids, [517180]);
});

test("pubchem: an unknown name is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (errors: HTTP 404 with {Fault:{Code:"PUGREST.NotFound", Message, Details}})`,
      request: { method: "GET", path: propertiesPath("name/notachemicalxyz") },
      response: {
        status: 404,
        body: {
          Fault: {
            Code: "PUGREST.NotFound",
            Message: "No CID found",
            Details: ["No CID found that matches the given name"],
          },
        },
      },
    },
  ]);
  expectNotFound(await (await serviceFor(api.url)).call("pubchem", { name: "notachemicalxyz" }));
});

test("pubchem: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", propertiesPath("name/aspirin"), docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("pubchem", { name: "aspirin" }));
});

test("pubchem: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/pubchem?name=a%2F..%2Fb"), "name");
  await expectFree400(await service.request("/v1/pubchem?cid=0"), "cid");
  for (const input of [{}, { name: "aspirin", cid: 2244 }]) {
    const out = await service.call("pubchem", input);
    assert.equal(out.status, 400, JSON.stringify(input));
  }
  assert.equal(api.calls.length, 0);
});
