import { after, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { loadFixture, serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startDnsServer } from "./_dns-server.ts";
import { dataOf } from "../../helpers/expect.ts";
import ipInfo from "../../../plugins/web/ip-info.ts";

const dir = new URL("./fixtures/", import.meta.url);

const dnsServer = await startDnsServer({
  names: { "8.8.8.8.in-addr.arpa": { PTR: ["dns.google"] }, "139.6.0.193.in-addr.arpa": {} },
});
after(() => dnsServer.close());

/** IANA's ipv4.json fixture with ARIN's and RIPE's bases moved to the local stand-in. */
async function bootstrapPointingAt(registryUrl: string): Promise<Fixture> {
  const fixture = await loadFixture("iana-rdap.ipv4", dir);
  const body = fixture.response.body as { services: [string[], string[]][] };
  body.services = body.services.map(([prefixes, urls]) => [
    prefixes,
    urls.map((u) => u.replace("https://rdap.arin.net", registryUrl).replace("https://rdap.db.ripe.net", registryUrl)),
  ]);
  return fixture;
}

async function setup(t: TestContext, registryFixtures: (string | Fixture)[]) {
  const registry = await serveFixtures(t, registryFixtures, { dir });
  const iana = await serveFixtures(t, [await bootstrapPointingAt(registry.url)]);
  const service = await startTestService({
    plugins: ["web"],
    env: { UPSTREAM_IANA_RDAP_URL: iana.url, DNS_SERVERS: dnsServer.server },
    egressLoopbackPort: Number(new URL(registry.url).port),
  });
  return { service, registry, iana };
}

test("ip-info: a public address: network, owner, CIDR, abuse contact over RDAP and its PTR name", async (t) => {
  const { service, registry } = await setup(t, ["rdap-arin.8-8-8-8"]);
  const out = await service.call(ipInfo, { ip: "8.8.8.8" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  assert.deepEqual(dataOf(out), {
    ip: "8.8.8.8",
    version: 4,
    public: true,
    scope: "public",
    reverseDns: ["dns.google"],
    network: {
      name: "GOGL",
      handle: "NET-8-8-8-0-2",
      type: "DIRECT ALLOCATION",
      cidr: ["8.8.8.0/24"],
      startAddress: "8.8.8.0",
      endAddress: "8.8.8.255",
      country: null,
      owner: "Google LLC",
      abuseEmail: "network-abuse@google.com",
      registered: "2023-12-28T22:24:33.000Z",
      updated: "2023-12-28T22:24:56.000Z",
      rdapServer: `${registry.url}/registry/`,
    },
  });
  assert.ok(dnsServer.queries.includes("8.8.8.8.in-addr.arpa PTR"));
});

test("ip-info: the registry is chosen by the longest bootstrap prefix; no PTR is an empty list; the bootstrap is fetched once", async (t) => {
  const { service, iana } = await setup(t, ["rdap-ripe.193-0-6-139", "rdap-arin.8-8-8-8"]);
  const data = dataOf(await service.call(ipInfo, { ip: "193.0.6.139" }));
  assert.deepEqual(
    [data.network!.name, data.network!.country, data.network!.cidr, data.network!.owner, data.network!.abuseEmail],
    [
      "RIPE-NCC",
      "NL",
      ["193.0.0.0/21"],
      "Reseaux IP Europeens Network Coordination Centre (RIPE NCC)",
      "abuse@ripe.net",
    ],
  );
  assert.deepEqual(data.reverseDns, []);
  assert.equal((await service.call(ipInfo, { ip: "8.8.8.8" })).status, 200);
  assert.equal(iana.calls.length, 1);
});

test("ip-info: private, loopback, CGNAT, documentation and IPv6 local addresses answer without any lookup", async (t) => {
  const { service, registry, iana } = await setup(t, []);
  const before = dnsServer.queries.length;
  const cases: [string, string, number, string][] = [
    ["10.1.2.3", "10.1.2.3", 4, "private"],
    ["127.0.0.1", "127.0.0.1", 4, "loopback"],
    ["100.64.0.1", "100.64.0.1", 4, "carrierGradeNat"],
    ["192.0.2.10", "192.0.2.10", 4, "reserved"],
    ["::1", "::1", 6, "loopback"],
    ["fd12:3456::1", "fd12:3456::1", 6, "uniqueLocal"],
    ["::ffff:192.168.1.1", "192.168.1.1", 4, "private"],
  ];
  for (const [ip, normalized, version, scope] of cases) {
    const data = dataOf(await service.call(ipInfo, { ip }));
    assert.deepEqual(data, { ip: normalized, version, public: false, scope, reverseDns: null, network: null }, ip);
  }
  const own = dataOf(await service.call(ipInfo, {}));
  assert.equal(own.ip, "127.0.0.1");
  assert.equal(registry.calls.length + iana.calls.length, 0);
  assert.equal(dnsServer.queries.length, before);
});

test("ip-info: a failing RDAP server is a 502 and a missing record a 404, neither charged", async (t) => {
  const { service } = await setup(t, [
    {
      source: "RDAP server failure (HTTP 500)",
      request: { method: "GET", path: "/registry/ip/8.8.4.4" },
      response: { status: 500, body: "error" },
    },
    {
      source: "RFC 9083 section 6: an RDAP server answers 404 for an object it does not hold",
      request: { method: "GET", path: "/registry/ip/9.9.9.9" },
      response: { status: 404, body: { errorCode: 404, title: "Not Found" } },
    },
  ]);
  const failing = await service.call(ipInfo, { ip: "8.8.4.4" });
  assert.equal(failing.status, 502);
  const missing = await service.call(ipInfo, { ip: "9.9.9.9" });
  assert.equal(missing.status, 404);
});

test("ip-info: bad input is a free 400 and calls nothing", async (t) => {
  const { service, registry, iana } = await setup(t, []);
  for (const query of ["ip=256.1.1.1", "ip=1.2.3", "ip=example.com", "ip=1.2.3.4%2F24", "ip=12345::abcde"]) {
    const res = await service.request(`/v1/ip-info?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal((await res.json()).error.details.issues[0].field, "ip", query);
  }
  assert.equal(registry.calls.length + iana.calls.length, 0);
});
