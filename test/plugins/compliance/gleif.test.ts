import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import gleifEndpoint from "../../../plugins/compliance/gleif.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["compliance"], env: { UPSTREAM_GLEIF_URL: `${url}/gleif` } });

test("gleif: an LEI is looked up exactly", async (t) => {
  const api = await serveFixtures(t, ["gleif.lei-bloomberg"], { dir });
  const out = await (await serviceFor(api.url)).call(gleifEndpoint, { q: "5493001kjtiigc8y1r12" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.match, "lei");
  assert.deepEqual(data.records[0], {
    lei: "5493001KJTIIGC8Y1R12",
    legalName: "Bloomberg Finance L.P.",
    otherNames: [],
    entityStatus: "ACTIVE",
    registrationStatus: "ISSUED",
    category: "GENERAL",
    jurisdiction: "US-DE",
    legalFormId: "T91T",
    registeredAs: "2650053",
    legalAddress: {
      lines: ["C/O The Corporation Trust Company", "1209 Orange Street"],
      city: "Wilmington",
      region: "US-DE",
      country: "US",
      postalCode: "19801",
    },
    headquartersAddress: {
      lines: ["731 Lexington Avenue"],
      city: "New York",
      region: "US-NY",
      country: "US",
      postalCode: "10022",
    },
    initialRegistrationDate: "2012-06-06T15:53:00Z",
    lastUpdateDate: "2026-06-10T20:42:02Z",
    nextRenewalDate: "2027-06-14T19:15:07Z",
    managingLou: "EVK05KS7XY1DEII3R011",
    bic: [],
    url: "https://search.gleif.org/#/record/5493001KJTIIGC8Y1R12",
  });
});

test("gleif: a name is a full-text search, limited, with GLEIF's total", async (t) => {
  const api = await serveFixtures(t, ["gleif.search-bloomberg"], { dir });
  const data = (
    (await (await serviceFor(api.url)).call(gleifEndpoint, { q: "Bloomberg Finance", limit: 2 })).body as any
  ).data;
  assert.equal(data.match, "fulltext");
  assert.equal(data.total, 14);
  assert.deepEqual(
    data.records.map((r: any) => [r.lei, r.legalName, r.bic]),
    [
      ["5493001KJTIIGC8Y1R12", "Bloomberg Finance L.P.", []],
      ["549300B56MD0ZC402L06", "Bloomberg Finance Holdings L.P.", ["BLFLUS33XXX"]],
    ],
  );
});

test("gleif: an unknown LEI is a 404; a failing API a 502; neither charged", async (t) => {
  const api = await serveFixtures(
    t,
    [
      "gleif.lei-missing",
      {
        source: "GLEIF outage (HTTP 500)",
        request: { method: "GET", path: "/gleif/lei-records?filter[fulltext]=Acme&page[size]=10&page[number]=1" },
        response: { status: 500, body: "error" },
      },
    ],
    { dir, reuse: true },
  );
  const service = await serviceFor(api.url);
  const missing = await service.call(gleifEndpoint, { q: "52990000000000ZZZZ78" });
  assert.equal(missing.status, 404);
  const failing = await service.call(gleifEndpoint, { q: "Acme" });
  assert.equal(failing.status, 502);
});

test("gleif: bad input is a 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  for (const query of ["", "q=a", "q=Acme&limit=0", "q=Acme&limit=51", "q=Acme&limit=ten"]) {
    assert.equal((await service.request(`/v1/gleif?${query}`)).status, 400, query);
  }
  assert.equal(api.calls.length, 0);
});
