import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import { startDnsServer } from "./_dns-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";
import { errorOf } from "../../helpers/expect.ts";
import dnsEndpoint from "../../../plugins/web/dns.ts";

const dnsServer = await startDnsServer({
  ttl: 120,
  names: {
    "example.test": {
      A: ["93.184.215.14"],
      AAAA: ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
      MX: [
        { priority: 20, exchange: "backup.example.test" },
        { priority: 10, exchange: "mail.example.test" },
      ],
      TXT: [["v=spf1 include:_spf.example.test ", "-all"]],
      NS: ["ns1.example.test", "ns2.example.test"],
      SOA: [
        {
          nsname: "ns1.example.test",
          hostmaster: "hostmaster.example.test",
          serial: 2026010101,
          refresh: 7200,
          retry: 3600,
          expire: 1209600,
          minttl: 300,
        },
      ],
      CAA: [{ flags: 0, tag: "issue", value: "letsencrypt.org" }],
    },
    "www.example.test": { CNAME: ["example.test"] },
    "_sip._tcp.example.test": { SRV: [{ priority: 10, weight: 60, port: 5060, target: "sip.example.test" }] },
  },
  servfail: ["broken.test"],
});
const service = await startTestService({ plugins: ["web"], env: { DNS_SERVERS: dnsServer.server } });
after(() => dnsServer.close());

const cases = [
  { type: "A", name: "example.test", records: [{ type: "A", data: "93.184.215.14", ttl: 120 }] },
  {
    type: "AAAA",
    name: "example.test",
    records: [{ type: "AAAA", data: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", ttl: 120 }],
  },
  {
    type: "MX",
    name: "Example.Test.",
    records: [
      { type: "MX", data: "10 mail.example.test" },
      { type: "MX", data: "20 backup.example.test" },
    ],
  },
  { type: "TXT", name: "example.test", records: [{ type: "TXT", data: "v=spf1 include:_spf.example.test -all" }] },
  {
    type: "NS",
    name: "example.test",
    records: [
      { type: "NS", data: "ns1.example.test" },
      { type: "NS", data: "ns2.example.test" },
    ],
  },
  { type: "CNAME", name: "www.example.test", records: [{ type: "CNAME", data: "example.test" }] },
  {
    type: "SOA",
    name: "example.test",
    records: [{ type: "SOA", data: "ns1.example.test hostmaster.example.test 2026010101 7200 3600 1209600 300" }],
  },
  { type: "CAA", name: "example.test", records: [{ type: "CAA", data: '0 issue "letsencrypt.org"' }] },
  { type: "SRV", name: "_sip._tcp.example.test", records: [{ type: "SRV", data: "10 60 5060 sip.example.test" }] },
];
for (const c of cases) {
  test(`dns: answers ${c.type} records from the configured resolver`, async () => {
    const data = dataOf(await service.call(dnsEndpoint, { name: c.name, type: c.type } as InputOf<typeof dnsEndpoint>));
    assert.equal(data.name, c.name.toLowerCase().replace(/\.$/, ""));
    assert.equal(data.status, "NOERROR");
    assert.deepEqual(data.records, c.records);
    assert.deepEqual(data.resolvers, [dnsServer.server]);
  });
}

test("dns: a name that does not exist is NXDOMAIN with no records", async () => {
  const data = dataOf(await service.call(dnsEndpoint, { name: "missing.test" }));
  assert.equal(data.status, "NXDOMAIN");
  assert.deepEqual(data.records, []);
});

test("dns: a name without records of the type is NODATA", async () => {
  const data = dataOf(await service.call(dnsEndpoint, { name: "www.example.test", type: "MX" }));
  assert.equal(data.status, "NODATA");
  assert.deepEqual(data.records, []);
});

test("dns: a resolver answering SERVFAIL is a 502", async () => {
  const out = await service.call(dnsEndpoint, { name: "broken.test" });
  expect502(out, "target_error");
  assert.match(errorOf(out).message, /ESERVFAIL/);
});

test("dns: bad input is a free 400 and nothing is queried", async () => {
  const before = dnsServer.queries.length;
  await expectFree400(await service.request(`/v1/dns?${query({ name: "not a name" })}`), "name");
  await expectFree400(await service.request(`/v1/dns?${query({ name: "example.test", type: "PTR" })}`), "type");
  await expectFree400(
    await service.request(`/v1/dns?${query({ name: "example.test", resolver: "10.0.0.1" })}`),
    "resolver",
  );
  assert.equal(dnsServer.queries.length, before);
});

test("dns: private and special-use names are refused with a 400 before any query", async () => {
  const before = dnsServer.queries.length;
  expectRefused(await service.call(dnsEndpoint, { name: "printer.local" }), /\.local/);
  expectRefused(await service.call(dnsEndpoint, { name: "db.internal", type: "TXT" }), /\.internal/);
  expectRefused(await service.call(dnsEndpoint, { name: "localhost" }), /localhost/);
  expectRefused(await service.call(dnsEndpoint, { name: "10.0.0.1" }), /not an IP address/);
  assert.equal(dnsServer.queries.length, before);
});

test("dns: an unpaid call with valid input is a 402 and queries nothing", async () => {
  const before = dnsServer.queries.length;
  const res = await service.request(`/v1/dns?${query({ name: "example.test" })}`);
  assert.equal(res.status, 402);
  assert.equal(dnsServer.queries.length, before);
});
