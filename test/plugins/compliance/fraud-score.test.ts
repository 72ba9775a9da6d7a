import { after, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { loadFixture, serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { startDnsServer } from "../web/_dns-server.ts";
import { dataOf, issuesOf } from "../../helpers/expect.ts";
import fraudScore from "../../../plugins/compliance/fraud-score.ts";

const dir = new URL("./fixtures/", import.meta.url);
const webDir = new URL("../web/fixtures/", import.meta.url);
const lists = ["ofac-sdn.excerpt", "eu-fsf.excerpt", "un-sc.excerpt", "uk-sanctions.excerpt"];
const now = new Date("2026-11-21T12:00:00Z");

const dnsServer = await startDnsServer({
  names: {
    "mailinator.com": { MX: [{ priority: 10, exchange: "mail.mailinator.com" }] },
    "new-shop-example.com": { A: ["203.0.113.7"] },
  },
});
after(() => dnsServer.close());

const torList: Fixture = {
  source: "https://check.torproject.org/torbulkexitlist (plain text, one exit address per line); an excerpt",
  request: { method: "GET", path: "/tor/torbulkexitlist" },
  response: { status: 200, body: "185.220.101.1\n185.220.101.2\n199.249.230.87\n" },
};

/** Verisign's RDAP answer for example.com, renamed and re-dated: the same published shape for another .com name. */
async function comDomain(name: string, registered: string): Promise<Fixture> {
  const fixture = await loadFixture("rdap-verisign.example-com", webDir);
  const body = fixture.response.body as { ldhName: string; events: { eventAction: string; eventDate: string }[] };
  body.ldhName = name.toUpperCase();
  body.events = body.events.map((e) => (e.eventAction === "registration" ? { ...e, eventDate: registered } : e));
  return {
    ...fixture,
    source: `${fixture.source}; name and registration date changed for this case`,
    request: { method: "GET", path: `/com/v1/domain/${name}` },
  };
}

async function setup(t: TestContext, fixtures: (string | Fixture)[], reuse = false) {
  const api = await serveFixtures(t, fixtures, { dir, reuse });
  const bootstrap = await loadFixture("iana-rdap.dns", webDir);
  const body = bootstrap.response.body as { services: [string[], string[]][] };
  body.services = body.services.map(([tlds, urls]) => [
    tlds,
    urls.map((u) => u.replace("https://rdap.verisign.com", api.url)),
  ]);
  const iana = await serveFixtures(t, [bootstrap], { reuse: true });
  const service = await startTestService({
    plugins: ["compliance"],
    now: () => now,
    egressLoopbackPort: Number(new URL(api.url).port),
    env: {
      DNS_SERVERS: dnsServer.server,
      UPSTREAM_IANA_RDAP_URL: iana.url,
      UPSTREAM_TOR_EXIT_LIST_URL: `${api.url}/tor`,
      UPSTREAM_GOPLUS_URL: `${api.url}/goplus`,
      UPSTREAM_OFAC_SDN_URL: `${api.url}/ofac`,
      UPSTREAM_EU_FSF_URL: `${api.url}/eu`,
      UPSTREAM_UN_SC_URL: `${api.url}/un`,
      UPSTREAM_UK_SANCTIONS_URL: `${api.url}/uk`,
    },
  });
  return { api, iana, service };
}

const triggered = (data: any) => data.factors.filter((f: any) => f.triggered).map((f: any) => [f.name, f.points]);

test("fraud-score: a disposable e-mail from a Tor exit is severe, every factor explained", async (t) => {
  const { service } = await setup(t, [torList, await comDomain("mailinator.com", "2003-04-29T18:29:50Z")]);
  const out = await service.call(fraudScore, { email: "jane@mailinator.com", ip: "185.220.101.1" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(data.checked, ["email", "ip"]);
  assert.deepEqual(triggered(data), [
    ["disposable-email", 45],
    ["tor-exit", 50],
  ]);
  assert.deepEqual([data.score, data.band], [95, "severe"]);
  const byName = Object.fromEntries(data.factors.map((f: any) => [f.name, f]));
  assert.equal(byName["email-domain-no-mail"].value, "MX mail.mailinator.com");
  assert.equal(byName["young-domain"].value, "mailinator.com registered 2003-04-29 (8606 days ago)");
  assert.equal(byName["tor-exit"].source, "Tor Project bulk exit list (3 exits)");
});

test("fraud-score: a days-old domain whose role address takes no mail is high", async (t) => {
  const { service } = await setup(t, [await comDomain("new-shop-example.com", "2026-11-11T09:00:00Z")]);
  const data = (
    (await service.call(fraudScore, { email: "admin@new-shop-example.com", domain: "www.new-shop-example.com" }))
      .body as any
  ).data;
  assert.deepEqual(triggered(data), [
    ["email-domain-no-mail", 30],
    ["role-account", 5],
    ["young-domain", 30],
  ]);
  assert.deepEqual([data.score, data.band, data.checked], [65, "high", ["email", "domain"]]);
});

test("fraud-score: a private IP is medium without any list fetched; a listed wallet is capped at 100", async (t) => {
  const { service, api } = await setup(t, [...lists, "goplus.address-security-lazarus"]);
  const ip = dataOf(await service.call(fraudScore, { ip: "10.0.0.8" }));
  assert.deepEqual([triggered(ip), ip.score, ip.band], [[["ip-not-public", 30]], 30, "medium"]);
  assert.equal(api.calls.length, 0);
  const wallet = (
    (await service.call(fraudScore, { wallet: "0x098b716b8aaf21512996dc57eb0615e2383e2f96" })).body as any
  ).data;
  assert.deepEqual(triggered(wallet), [
    ["ofac-listed-address", 100],
    ["wallet-flagged", 70],
  ]);
  assert.deepEqual([wallet.score, wallet.band], [100, "severe"]);
});

test("fraud-score: the Tor list failing is a 502", async (t) => {
  const { service, api } = await setup(t, [{ ...torList, response: { status: 503, body: "down" } }], true);
  const out = await service.call(fraudScore, { ip: "185.220.101.1" });
  assert.equal(out.status, 502);
  assert.ok(api.calls.length >= 1);
});

test("fraud-score: nothing to score or a malformed field is a 400 before any call", async (t) => {
  const { service, api, iana } = await setup(t, []);
  const none = await service.call(fraudScore, { chain: "ethereum" });
  assert.equal(none.status, 400);
  assert.deepEqual(
    issuesOf(none).map((i: any) => i.field),
    ["email", "ip", "domain", "wallet"],
  );
  for (const query of [
    "email=jane",
    "ip=1.2.3",
    "wallet=0x12",
    "domain=-bad-.com",
    "wallet=0x098b716b8aaf21512996dc57eb0615e2383e2f96&chain=solana",
  ]) {
    const res = await service.request(`/v1/fraud-score?${query}`);
    assert.equal(res.status, 400, query);
  }
  assert.equal(api.calls.length + iana.calls.length, 0);
});
