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
import drugEvents from "../../../plugins/publicdata/drug-events.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_OPENFDA_URL: url });
const docs = "https://open.fda.gov/apis/drug/event/";

test("drug-events: the most reported reactions and the report total", async (t) => {
  const api = await serveFixtures(t, ["openfda.ibuprofen-latest", "openfda.ibuprofen-reactions"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("drug-events", drugEvents.example.input)),
    drugEvents.example.output,
  );
});

test("drug-events: reports view decodes age, sex and drug roles", async (t) => {
  const api = await serveFixtures(t, ["openfda.ibuprofen-reports"], { dir });
  const data = dataOf(
    await (await serviceFor(api.url)).call("drug-events", { drug: "Ibuprofen", view: "reports", limit: 3 }),
  );
  assert.deepEqual(data.reactions, []);
  assert.deepEqual(data.reports[0], {
    id: "24381265",
    received: "2024-12-31",
    serious: true,
    death: false,
    country: "US",
    patient: { ageYears: 67, sex: "female" },
    reactions: ["Gastrointestinal haemorrhage", "Anaemia"],
    drugs: [
      { name: "IBUPROFEN", role: "suspect" },
      { name: "ASPIRIN", role: "concomitant" },
    ],
    url: 'https://api.fda.gov/drug/event.json?search=safetyreportid:"24381265"',
  });
});

test("drug-events: a drug with no reports answers total 0", async (t) => {
  const none = { error: { code: "NOT_FOUND", message: "No matches found!" } };
  const search =
    '(patient.drug.openfda.generic_name:"ZZQXAB" OR patient.drug.openfda.brand_name:"ZZQXAB" OR patient.drug.medicinalproduct:"ZZQXAB")';
  const api = await serveFixtures(t, [
    {
      source: `${docs} (no match: 404 NOT_FOUND)`,
      request: {
        method: "GET",
        path: `/drug/event.json?${new URLSearchParams({ search, sort: "receivedate:desc", limit: "1" })}`,
      },
      response: { status: 404, body: none },
    },
    {
      source: `${docs} (no match: 404 NOT_FOUND)`,
      request: {
        method: "GET",
        path: `/drug/event.json?${new URLSearchParams({ search, count: "patient.reaction.reactionmeddrapt.exact", limit: "25" })}`,
      },
      response: { status: 404, body: none },
    },
  ]);
  const data = dataOf(await (await serviceFor(api.url)).call("drug-events", { drug: "zzqxab" }));
  assert.equal(data.total, 0);
  assert.deepEqual(data.reactions, []);
});

test("drug-events: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      failing(
        "GET",
        (await import("./fixtures/openfda.ibuprofen-latest.json", { with: { type: "json" } })).default.request.path,
        docs,
      ),
      "openfda.ibuprofen-reactions",
    ],
    { dir, reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("drug-events", drugEvents.example.input));
});

test("drug-events: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/drug-events"), "drug");
  await expectFree400(await service.request("/v1/drug-events?drug=ibuprofen%22)%20OR%20(x"), "drug");
  await expectFree400(await service.request("/v1/drug-events?drug=ibuprofen&view=graph"), "view");
  assert.equal(api.calls.length, 0);
});
