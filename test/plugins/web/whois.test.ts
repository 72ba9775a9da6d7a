import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { loadFixture, serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";
import { errorOf } from "../../helpers/expect.ts";
import whoisEndpoint from "../../../plugins/web/whois.ts";

const dir = new URL("./fixtures/", import.meta.url);
const verisign = "https://rdap.verisign.com";

/** IANA's bootstrap fixture with Verisign's base moved to `registryUrl` (the local stand-in). */
async function bootstrapPointingAt(registryUrl: string): Promise<Fixture> {
  const fixture = await loadFixture("iana-rdap.dns", dir);
  const body = fixture.response.body as { services: [string[], string[]][] };
  body.services = body.services.map(([tlds, urls]) => [tlds, urls.map((u) => u.replace(verisign, registryUrl))]);
  return fixture;
}

async function setup(t: TestContext, registryFixtures: (string | Fixture)[], registryUrlInBootstrap?: string) {
  const registry = await serveFixtures(t, registryFixtures, { dir });
  const iana = await serveFixtures(t, [await bootstrapPointingAt(registryUrlInBootstrap ?? registry.url)]);
  const service = await startTestService({
    plugins: ["web"],
    env: { UPSTREAM_IANA_RDAP_URL: iana.url },
    egressLoopbackPort: Number(new URL(registry.url).port),
  });
  return { service, registry, iana };
}

test("whois: reads registrar, dates, status, nameservers and DNSSEC from the registry's RDAP server", async (t) => {
  const { service, registry, iana } = await setup(t, ["rdap-verisign.example-com"]);
  const out = await service.call(whoisEndpoint, { domain: "www.Example.com" });
  const data = dataOf(out);
  assert.equal(data.domain, "example.com");
  assert.equal(data.rdapServer, `${registry.url}/com/v1/`);
  assert.equal(data.handle, "2336799_DOMAIN_COM-VRSN");
  assert.deepEqual(data.registrar, {
    name: "RESERVED-Internet Assigned Numbers Authority",
    ianaId: "376",
    abuseEmail: "abuse@iana.org",
  });
  assert.equal(data.created, "1995-08-14T04:00:00.000Z");
  assert.equal(data.expires, "2027-08-13T04:00:00.000Z");
  assert.equal(data.updated, "2026-08-14T07:01:34.000Z");
  assert.equal(data.ageDays, Math.floor((Date.now() - Date.parse("1995-08-14T04:00:00Z")) / 86_400_000));
  assert.deepEqual(data.status, ["client delete prohibited", "client transfer prohibited", "client update prohibited"]);
  assert.deepEqual(data.nameservers, ["a.iana-servers.net", "b.iana-servers.net"]);
  assert.equal(data.dnssec, true);
  assert.deepEqual((out.body as any).meta.sources, ["iana-rdap"]);
  assert.equal(registry.calls[0].headers.accept, "application/rdap+json, application/json");
  assert.equal(iana.calls.length, 1);
});

test("whois: the bootstrap is fetched once, and an unregistered domain is a 404", async (t) => {
  const { service, iana } = await setup(t, ["rdap-verisign.example-com", "rdap-verisign.not-found"]);
  dataOf(await service.call(whoisEndpoint, { domain: "example.com" }));
  const out = await service.call(whoisEndpoint, { domain: "unregistered-name-4821.com" });
  assert.equal(out.status, 404, JSON.stringify(out.body));
  assert.equal(errorOf(out).code, "not_found");
  assert.equal(iana.calls.length, 1);
});

test("whois: a TLD without an RDAP service is a 404", async (t) => {
  const { service, registry } = await setup(t, []);
  const out = await service.call(whoisEndpoint, { domain: "example.xyz" });
  assert.equal(out.status, 404);
  assert.match(errorOf(out).message, /\.xyz has no RDAP service/);
  assert.equal(registry.calls.length, 0);
});

test("whois: a failing registry is a 502", async (t) => {
  const down: Fixture = {
    source: "RFC 9083 section 6 error body (https://www.rfc-editor.org/rfc/rfc9083#section-6) with a 503",
    request: { method: "GET", path: "/com/v1/domain/example.com" },
    response: { status: 503, body: { errorCode: 503, title: "Service Unavailable" } },
  };
  const { service } = await setup(t, [down]);
  expect502(await service.call(whoisEndpoint, { domain: "example.com" }), "upstream_error");
});

test("whois: a failing IANA bootstrap is a 502", async (t) => {
  const iana = await serveFixtures(
    t,
    [
      {
        source: "IANA answering 500 (no published body)",
        request: { method: "GET", path: "/dns.json" },
        response: { status: 500, body: "Internal Server Error" },
      },
    ],
    { reuse: true },
  );
  const service = await startTestService({ plugins: ["web"], env: { UPSTREAM_IANA_RDAP_URL: iana.url } });
  expect502(await service.call(whoisEndpoint, { domain: "example.com" }), "upstream_error");
  assert.ok(iana.calls.length >= 1);
});

test("whois: a registry address the egress guard refuses is a 502, not the caller's fault", async (t) => {
  const { service, registry } = await setup(t, [], "http://10.0.0.1");
  const out = await service.call(whoisEndpoint, { domain: "example.com" });
  expect502(out, "upstream_error");
  assert.equal(registry.calls.length, 0);
});

test("whois: bad input is a free 400 and nothing is fetched", async (t) => {
  const { service, registry, iana } = await setup(t, []);
  await expectFree400(await service.request(`/v1/whois?${query({ domain: "not a domain" })}`), "domain");
  await expectFree400(await service.request("/v1/whois"), "domain");
  assert.equal(registry.calls.length + iana.calls.length, 0);
});

test("whois: private names, IP addresses and bare public suffixes are refused before any fetch", async (t) => {
  const { service, registry, iana } = await setup(t, []);
  expectRefused(await service.call(whoisEndpoint, { domain: "router.home.arpa" }), /home\.arpa/);
  expectRefused(await service.call(whoisEndpoint, { domain: "10.0.0.1" }), /not an IP address/);
  expectRefused(await service.call(whoisEndpoint, { domain: "co.uk" }), /no registrable domain/);
  assert.equal(registry.calls.length + iana.calls.length, 0);
});
