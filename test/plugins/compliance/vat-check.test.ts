import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, errorOf, issuesOf } from "../../helpers/expect.ts";
import vatCheck from "../../../plugins/compliance/vat-check.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["compliance"], env: { UPSTREAM_VIES_URL: `${url}/vies` } });

test("vat-check: a valid number, with the name and address where the state discloses them", async (t) => {
  const api = await serveFixtures(t, ["vies.de-valid", "vies.ie-valid"], { dir });
  const service = await serviceFor(api.url);
  const de = await service.call(vatCheck, { vatNumber: "DE129273398", country: "DE" });
  assert.equal(de.status, 200, JSON.stringify(de.body));
  assert.deepEqual(dataOf(de), {
    country: "DE",
    vatNumber: "DE129273398",
    valid: true,
    name: null,
    address: null,
    requestDate: "2026-11-21T10:31:07.512Z",
    consultationNumber: null,
  });
  const ie = (await service.call(vatCheck, { vatNumber: "IE6388047V" })).body as any;
  assert.equal(ie.data.name, "GOOGLE IRELAND LIMITED");
  assert.equal(ie.data.address, "3RD FLOOR, GORDON HOUSE, BARROW STREET, DUBLIN 4");
});

test("vat-check: an unregistered number is valid: false", async (t) => {
  const api = await serveFixtures(t, ["vies.fr-invalid"], { dir });
  const out = await (await serviceFor(api.url)).call(vatCheck, { vatNumber: "FR00123456789" });
  assert.equal(out.status, 200);
  assert.equal(dataOf(out).valid, false);
});

test("vat-check: a member state that is down is a 503 with Retry-After; Greece is EL", async (t) => {
  const api = await serveFixtures(t, ["vies.el-unavailable"], { dir });
  const out = await (await serviceFor(api.url)).call(vatCheck, { vatNumber: "EL094014201", country: "GR" });
  assert.equal(out.status, 503);
  assert.equal(errorOf(out).details?.reason, "MS_UNAVAILABLE");
  assert.equal(out.headers?.["retry-after"], "60");
});

test("vat-check: VIES failing is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "VIES outage (HTTP 500)",
        request: { method: "GET", path: "/vies/ms/DE/vat/129273398" },
        response: { status: 500, body: "error" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(vatCheck, { vatNumber: "DE129273398" });
  assert.equal(out.status, 502);
});

test("vat-check: bad input is a 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  for (const query of [
    "",
    "vatNumber=129273398",
    "vatNumber=US123456789",
    "vatNumber=DE%20129273398",
    "vatNumber=GR094014201",
    "vatNumber=DE129273398&country=EL",
  ]) {
    const res = await service.request(`/v1/vat-check?${query}`);
    assert.equal(res.status, 400, query);
  }
  const mismatch = await service.call(vatCheck, { vatNumber: "DE129273398", country: "FR" });
  assert.equal(mismatch.status, 400);
  assert.equal(issuesOf(mismatch)[0].field, "country");
  assert.equal(api.calls.length, 0);
});
