import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import {
  dataOf,
  expectFree400,
  expectNotFound,
  expectUpstreamFailure,
  failing,
  fixtureDir as dir,
  publicdataService,
} from "./_sg-expect.ts";
import nameStats from "../../../plugins/publicdata/name-stats.ts";

type Served = Awaited<ReturnType<typeof serveFixtures>>;
const serviceFor = (g: Served, a: Served, n: Served, env: Record<string, string> = {}) =>
  publicdataService({
    UPSTREAM_GENDERIZE_URL: g.url,
    UPSTREAM_AGIFY_URL: a.url,
    UPSTREAM_NATIONALIZE_URL: n.url,
    ...env,
  });
const answer = (source: string, path: string, body: unknown): Fixture => ({
  source,
  request: { method: "GET", path },
  response: { status: 200, body },
});

test("name-stats: gender, age and nationality in one answer", async (t) => {
  const [g, a, n] = await Promise.all(
    ["genderize.peter", "agify.peter", "nationalize.peter"].map((f) => serveFixtures(t, [f], { dir })),
  );
  const data = dataOf(await (await serviceFor(g, a, n)).call("name-stats", nameStats.example.input));
  assert.deepEqual(data, nameStats.example.output);
});

test("name-stats: a country narrows gender and age, and a configured key is sent", async (t) => {
  const [g, a, n] = await Promise.all([
    serveFixtures(t, [
      answer("https://genderize.io/documentation#localization", "/?name=andrea&country_id=IT", {
        count: 36315,
        name: "andrea",
        gender: "male",
        probability: 0.97,
        country_id: "IT",
      }),
    ]),
    serveFixtures(t, [
      answer("https://agify.io/documentation#localization", "/?name=andrea&country_id=IT", {
        count: 36315,
        name: "andrea",
        age: 42,
        country_id: "IT",
      }),
    ]),
    serveFixtures(t, [
      answer("https://nationalize.io/documentation", "/?name=andrea", {
        count: 395140,
        name: "andrea",
        country: [{ country_id: "IT", probability: 0.3 }],
      }),
    ]),
  ]);
  const data = dataOf(
    await (await serviceFor(g, a, n, { UPSTREAM_GENDERIZE_KEY: "test-demografix-key" })).call("name-stats", {
      name: "Andrea",
      country: "it",
    }),
  );
  assert.deepEqual(
    [data.country, data.gender.value, data.gender.probability, data.age.value, data.nationalities[0].country],
    ["IT", "male", 0.97, 42, "IT"],
  );
  assert.equal(new URL(g.calls[0].path, g.url).searchParams.get("apikey"), "test-demografix-key");
});

test("name-stats: a name with no data anywhere is a 404", async (t) => {
  const [g, a, n] = await Promise.all([
    serveFixtures(t, [
      answer("https://genderize.io/documentation", "/?name=zzxqv", {
        count: 0,
        name: "zzxqv",
        gender: null,
        probability: 0.0,
      }),
    ]),
    serveFixtures(t, [
      answer("https://agify.io/documentation", "/?name=zzxqv", { count: 0, name: "zzxqv", age: null }),
    ]),
    serveFixtures(t, [
      answer("https://nationalize.io/documentation", "/?name=zzxqv", { count: 0, name: "zzxqv", country: [] }),
    ]),
  ]);
  expectNotFound(await (await serviceFor(g, a, n)).call("name-stats", { name: "zzxqv" }));
});

test("name-stats: a refusing upstream (daily limit) is a 502", async (t) => {
  const limited: Fixture = {
    source: "https://genderize.io/documentation#rate-limiting (429 with error when the daily limit is reached)",
    request: { method: "GET", path: "/?name=peter" },
    response: { status: 429, body: { error: "Request limit reached" } },
  };
  const [g, a, n] = await Promise.all([
    serveFixtures(t, [limited], { reuse: true }),
    serveFixtures(t, ["agify.peter"], { dir, reuse: true }),
    serveFixtures(t, [failing("GET", "/?name=peter", "https://nationalize.io/documentation")], { reuse: true }),
  ]);
  expectUpstreamFailure(await (await serviceFor(g, a, n)).call("name-stats", { name: "peter" }));
});

test("name-stats: bad input is a free 400 and calls nothing", async (t) => {
  const [g, a, n] = await Promise.all([serveFixtures(t, []), serveFixtures(t, []), serveFixtures(t, [])]);
  const service = await serviceFor(g, a, n);
  await expectFree400(await service.request("/v1/name-stats"), "name");
  await expectFree400(await service.request("/v1/name-stats?name=r2d2"), "name");
  await expectFree400(await service.request("/v1/name-stats?name=peter&country=USA"), "country");
  assert.equal(g.calls.length + a.calls.length + n.calls.length, 0);
});
