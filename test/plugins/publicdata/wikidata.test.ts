import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400 } from "../../helpers/expect.ts";
import wikidataEndpoint from "../../../plugins/publicdata/wikidata.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) => startTestService({ plugins: ["publicdata"], env: { UPSTREAM_WIKIDATA_URL: url } });

test("wikidata: an item by id, with key facts labelled and deprecated claims left out", async (t) => {
  const api = await serveFixtures(t, ["wikidata.q42", "wikidata.q42-labels"], { dir });
  const out = await (await serviceFor(api.url)).call(wikidataEndpoint, { id: "q42" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.id, data.label, data.wikipedia],
    ["Q42", "Douglas Adams", "https://en.wikipedia.org/wiki/Douglas_Adams"],
  );
  const fact = (p: string) => data.facts.find((f: any) => f.property === p)!;
  assert.deepEqual(fact("P31").values, [{ value: "human", id: "Q5" }]);
  assert.deepEqual(
    fact("P106").values.map((x: any) => x.value),
    ["novelist", "screenwriter"],
  );
  assert.deepEqual(fact("P569").values, [{ value: "1952-03-11", id: null }]);
  assert.equal(fact("P735"), undefined);
});

test("wikidata: a search picks the best match", async (t) => {
  const api = await serveFixtures(t, ["wikidata.search-douglas-adams", "wikidata.q42", "wikidata.q42-labels"], { dir });
  assert.equal(dataOf(await (await serviceFor(api.url)).call(wikidataEndpoint, { q: "douglas adams" })).id, "Q42");
  assert.equal(api.calls.length, 3);
});

test("wikidata: a missing item or an empty search is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: 'https://www.wikidata.org/w/api.php?action=help&modules=wbgetentities (a missing id: {id, missing: ""})',
      request: {
        method: "GET",
        path: "/w/api.php?action=wbgetentities&ids=Q999999999999&props=labels%7Cdescriptions%7Caliases%7Cclaims%7Csitelinks%2Furls&languages=en&sitefilter=enwiki&format=json",
      },
      response: {
        status: 200,
        body: { entities: { Q999999999999: { id: "Q999999999999", missing: "" } }, success: 1 },
      },
    },
    {
      source: "https://www.wikidata.org/w/api.php?action=help&modules=wbsearchentities (no match: empty search list)",
      request: {
        method: "GET",
        path: "/w/api.php?action=wbsearchentities&search=xqzzy&language=en&type=item&limit=1&format=json",
      },
      response: { status: 200, body: { searchinfo: { search: "xqzzy" }, search: [], success: 1 } },
    },
  ]);
  const service = await serviceFor(api.url);
  assert.equal((await service.call(wikidataEndpoint, { id: "Q999999999999" })).status, 404);
  assert.equal((await service.call(wikidataEndpoint, { q: "xqzzy" })).status, 404);
});

test("wikidata: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://www.wikidata.org/w/api.php",
        request: {
          method: "GET",
          path: "/w/api.php?action=wbsearchentities&search=paris&language=en&type=item&limit=1&format=json",
        },
        response: { status: 503, body: "Service Unavailable" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(wikidataEndpoint, { q: "paris" });
  assert.equal(out.status, 502);
});

test("wikidata: both or neither of id and q is a 400; bad input is a free 400", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  assert.equal((await service.call(wikidataEndpoint, {})).status, 400);
  assert.equal((await service.call(wikidataEndpoint, { id: "Q1", q: "xx" })).status, 400);
  await expectFree400(await service.request("/v1/wikidata?id=P31"), "id");
  await expectFree400(await service.request("/v1/wikidata?q=x"), "q");
  assert.equal(api.calls.length, 0);
});
