import { test } from "node:test";
import assert from "node:assert/strict";
import { createMemoryStore } from "../../../core/runtime/store.ts";
import { loadFixture, serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf, issuesOf } from "../../helpers/expect.ts";
import sanctionsEndpoint from "../../../plugins/compliance/sanctions.ts";

const dir = new URL("./fixtures/", import.meta.url);
const excerpts = ["ofac-sdn.excerpt", "eu-fsf.excerpt", "un-sc.excerpt", "uk-sanctions.excerpt"];
const job = "compliance-sanctions-lists";

const envFor = (url: string) => ({
  UPSTREAM_OFAC_SDN_URL: `${url}/ofac`,
  UPSTREAM_EU_FSF_URL: `${url}/eu`,
  UPSTREAM_UN_SC_URL: `${url}/un`,
  UPSTREAM_UK_SANCTIONS_URL: `${url}/uk`,
});

const failing = (path: string, status = 404): Fixture => ({
  source: "A download failure (the publisher's server answering an error)",
  request: { method: "GET", path },
  response: { status, body: "unavailable" },
});

async function indexedService(t: { after(fn: () => unknown): void }) {
  const api = await serveFixtures(t, excerpts, { dir });
  let now = new Date("2026-11-21T06:00:00Z");
  const service = await startTestService({ plugins: ["compliance"], env: envFor(api.url), now: () => now });
  assert.equal(await service.jobs.run(job), true);
  return { api, service, moveTo: (iso: string) => (now = new Date(iso)) };
}

const screen = async (service: Awaited<ReturnType<typeof startTestService>>, input: object) => {
  const out = await service.call(sanctionsEndpoint, input);
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};

test("sanctions: the job indexes all four lists; exact names, aliases, misspellings and addresses match", async (t) => {
  const { api, service } = await indexedService(t);
  assert.equal(api.calls.length, 4);

  const exact = await screen(service, { name: "Lazarus Group" });
  assert.deepEqual(
    exact.matches.map((m: any) => [m.list, m.id, m.matchedField, m.score]),
    [["ofac-sdn", "23036", "name", 1]],
  );
  assert.deepEqual(exact.matches[0].programs, ["DPRK3"]);
  assert.deepEqual(exact.matches[0].addresses, [
    { currency: "ETH", address: "0x098B716B8Aaf21512996dC57EB0615e2383E2f96" },
  ]);

  const alias = await screen(service, { name: "hidden cobra" });
  assert.deepEqual(
    alias.matches.map((m: any) => [m.id, m.name, m.matchedField, m.matchedValue]),
    [["23036", "LAZARUS GROUP", "alias", "HIDDEN COBRA"]],
  );

  const reordered = await screen(service, { name: "YAN Xiaobing", strict: true });
  assert.deepEqual(
    reordered.matches.map((m: any) => [m.id, m.name, m.kind]),
    [["25308", "Xiaobing YAN", "person"]],
  );

  const misspelt = await screen(service, { name: "Xiaobin Yann" });
  assert.equal(misspelt.matches[0].id, "25308");
  assert.ok(misspelt.matches[0].score > 0.9 && misspelt.matches[0].score < 1, String(misspelt.matches[0].score));

  const lowerCased = await screen(service, { address: "0x098b716b8aaf21512996dc57eb0615e2383e2f96" });
  assert.deepEqual(
    lowerCased.matches.map((m: any) => [m.list, m.id, m.matchedField, m.matchedValue]),
    [["ofac-sdn", "23036", "address", "0x098B716B8Aaf21512996dC57EB0615e2383E2f96"]],
  );
  const bitcoin = await screen(service, { address: "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h" });
  assert.equal(bitcoin.matches[0].id, "25308");

  const un = await screen(service, { name: "Al Qaida" });
  assert.deepEqual(
    un.matches.map((m: any) => [m.list, m.id, m.listedOn]),
    [["un-sc", "QDe.004", "2001-10-06"]],
  );
  const eu = await screen(service, { name: "Basir Awal Shah" });
  assert.deepEqual(
    eu.matches.map((m: any) => [m.list, m.id, m.matchedField, m.programs]),
    [["eu-fsf", "EU.27.28", "alias", ["AFG"]]],
  );
  const uk = await screen(service, { name: "Roman Abramovich" });
  assert.deepEqual(
    uk.matches.map((m: any) => [m.list, m.id, m.listedOn, m.programs]),
    [["uk-sanctions", "RUS0255", "2022-03-10", ["Russia"]]],
  );

  assert.deepEqual(
    exact.lists.map((l: any) => [l.id, l.publishedAt, l.entries, l.stale, l.error]),
    [
      ["ofac-sdn", "2026-11-20", 3, false, null],
      ["eu-fsf", "2026-11-20T18:01:12.356+01:00", 1, false, null],
      ["un-sc", "2026-11-20T09:00:05.113Z", 2, false, null],
      ["uk-sanctions", "2026-11-20T10:12:45", 1, false, null],
    ],
  );
  assert.match(exact.lists[0].sourceUrl, /\/ofac\/SDN\.XML$/);
  assert.equal(api.calls.length, 4, "calls read the stored index, not the lists");
});

test("sanctions: names and addresses that are not listed do not match; strict drops fuzzy matches", async (t) => {
  const { service } = await indexedService(t);
  for (const name of ["John Smith", "Lazarus", "Caribbean Air Lines Holdings", "Abramowitz Romanov"]) {
    assert.deepEqual((await screen(service, { name })).matches, [], name);
  }
  assert.deepEqual((await screen(service, { address: "0x0000000000000000000000000000000000000001" })).matches, []);
  assert.deepEqual((await screen(service, { name: "Xiaobin Yann", strict: true })).matches, []);
  assert.equal((await screen(service, { name: "Lazarus", minScore: 0.8 })).matches[0].id, "23036");
});

test("sanctions: without the job, the first call builds the index and later calls reuse it", async (t) => {
  const api = await serveFixtures(t, excerpts, { dir });
  const service = await startTestService({ plugins: ["compliance"], env: envFor(api.url) });
  assert.equal((await screen(service, { name: "Aero-Caribbean" })).matches[0].id, "36");
  assert.equal((await screen(service, { name: "Aerocaribbean Airlines" })).matches[0].matchedField, "name");
  assert.equal(api.calls.length, 4);
});

test("sanctions: the OFAC download follows its redirect to signed storage", async (t) => {
  const signed = {
    ...(await loadFixture("ofac-sdn.excerpt", dir)),
    request: { method: "GET", path: "/storage/SDN.XML?X-Amz-Signature=abc" },
  };
  const redirect: Fixture = {
    source: "OFAC Sanctions List Service: exports answer 302 to a short-lived signed storage URL",
    request: { method: "GET", path: "/ofac/SDN.XML" },
    response: { status: 302, headers: { location: "/storage/SDN.XML?X-Amz-Signature=abc" }, body: "" },
  };
  const api = await serveFixtures(t, [redirect, signed, ...excerpts.slice(1)], { dir });
  const service = await startTestService({ plugins: ["compliance"], env: envFor(api.url) });
  const data = await screen(service, { name: "Lazarus Group" });
  assert.equal(data.matches[0].id, "23036");
  assert.deepEqual(
    api.calls.filter((c) => c.path.includes("SDN")).map((c) => c.path),
    ["/ofac/SDN.XML", "/storage/SDN.XML?X-Amz-Signature=abc"],
  );
});

test("sanctions: a list that fails to download keeps its previous index and is reported stale", async (t) => {
  const store = createMemoryStore();
  const first = await serveFixtures(t, excerpts, { dir });
  let now = new Date("2026-11-21T06:00:00Z");
  const a = await startTestService({ plugins: ["compliance"], env: envFor(first.url), store, now: () => now });
  assert.equal(await a.jobs.run(job), true);

  const second = await serveFixtures(t, [failing("/ofac/SDN.XML"), ...excerpts.slice(1)], { dir });
  const b = await startTestService({ plugins: ["compliance"], env: envFor(second.url), store, now: () => now });
  now = new Date("2026-11-21T12:00:01Z");
  assert.equal(await b.jobs.run(job), true);

  const data = await screen(b, { address: "0x7F367cC41522cE07553e823bf3be79A889DEbe1B" });
  assert.equal(data.matches[0].id, "25308");
  const ofac = data.lists.find((l: any) => l.id === "ofac-sdn")!;
  assert.equal(ofac.stale, true);
  assert.equal(ofac.fetchedAt, "2026-11-21T06:00:00.000Z");
  assert.equal(ofac.checkedAt, "2026-11-21T12:00:01.000Z");
  assert.match(ofac!.error!, /404|ofac-sdn/);
  assert.equal(data.lists.filter((l: any) => l.stale).length, 1);
});

test("sanctions: no list loadable is a 503", async (t) => {
  const api = await serveFixtures(t, [
    failing("/ofac/SDN.XML"),
    failing("/eu/xmlFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw"),
    failing("/un/consolidated.xml"),
    failing("/uk/UK-Sanctions-List.xml"),
  ]);
  const service = await startTestService({ plugins: ["compliance"], env: envFor(api.url) });
  const out = await service.call(sanctionsEndpoint, { name: "Lazarus Group" });
  assert.equal(out.status, 503);
  assert.equal(errorOf<{ lists: string[] }>(out).details?.lists.length, 4);
});

test("sanctions: bad input is a 400 before any list is fetched", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await startTestService({ plugins: ["compliance"], env: envFor(api.url) });
  for (const query of [
    "name=a",
    "address=0x123",
    "address=not%20an%20address",
    "name=Lazarus&strict=maybe",
    "name=Lazarus&minScore=0.2",
  ]) {
    const res = await service.request(`/v1/sanctions?${query}`);
    assert.equal(res.status, 400, query);
    assert.ok((await res.json()).error.details.issues.length > 0, query);
  }
  const none = await service.call(sanctionsEndpoint, {});
  assert.equal(none.status, 400);
  assert.deepEqual(
    issuesOf(none).map((i: any) => i.field),
    ["name", "address"],
  );
  assert.equal(api.calls.length, 0);
});
