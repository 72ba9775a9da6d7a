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
import universities from "../../../plugins/publicdata/universities.ts";
import { issuesOf } from "../../helpers/expect.ts";
import universitiesEndpoint from "../../../plugins/publicdata/universities.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_HIPOLABS_URL: url });
const docs = "https://github.com/Hipo/university-domains-list";

test("universities: a name search in our shape", async (t) => {
  const api = await serveFixtures(t, ["hipolabs.mit"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call(universitiesEndpoint, universities.example.input)),
    universities.example.output,
  );
});

test("universities: name and country together, sorted by name, limited", async (t) => {
  const api = await serveFixtures(t, ["hipolabs.lisboa-portugal"], { dir });
  const data = dataOf(
    await (await serviceFor(api.url)).call(universitiesEndpoint, { name: "lisboa", country: "Portugal", limit: 2 }),
  );
  assert.equal(data.total, 3);
  assert.deepEqual(
    data.universities.map((u: any) => [u.name, u.region, u.domains]),
    [
      ["Universidade Católica Portuguesa", null, ["ucp.pt"]],
      ["Universidade de Lisboa", "Lisboa", ["ulisboa.pt", "ul.pt"]],
    ],
  );
});

test("universities: no match is an empty list", async (t) => {
  const api = await serveFixtures(t, [
    { source: docs, request: { method: "GET", path: "/search?name=zzxqv" }, response: { status: 200, body: [] } },
  ]);
  assert.deepEqual(dataOf(await (await serviceFor(api.url)).call(universitiesEndpoint, { name: "zzxqv" })), {
    total: 0,
    universities: [],
  });
});

test("universities: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/search?country=Portugal", docs)], { reuse: true });
  expectUpstreamFailure(await (await serviceFor(api.url)).call(universitiesEndpoint, { country: "Portugal" }));
});

test("universities: bad input is a 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/universities?country=%3Cscript%3E"), "country");
  await expectFree400(await service.request("/v1/universities?name=a"), "name");
  const neither = await service.call(universitiesEndpoint, {});
  assert.equal(neither.status, 400);
  assert.equal(issuesOf(neither)[0].field, "name");
  assert.equal(api.calls.length, 0);
});
