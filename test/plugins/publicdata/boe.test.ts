import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import {
  dataOf,
  expectFree400,
  expectNotFound,
  expectUpstreamFailure,
  failing,
  fixtureDir as dir,
  publicdataService,
} from "./_sg-expect.ts";
import boe from "../../../plugins/publicdata/boe.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_BOE_URL: `${url}/datosabiertos/api` });
const docs = "https://www.boe.es/datosabiertos/documentos/APIsumarioBOE.pdf";

test("boe: the XML summary becomes items, filtered by section and words", async (t) => {
  const api = await serveFixtures(t, ["boe.sumario-20240611"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("boe", boe.example.input));
  assert.deepEqual(data, boe.example.output);
  assert.match(String(api.calls[0].headers.accept), /xml/);
});

test("boe: without a section every section but the announcements, items with or without a heading", async (t) => {
  const api = await serveFixtures(t, ["boe.sumario-20240611"], { dir, reuse: true });
  const service = await serviceFor(api.url);
  const day = dataOf(await service.call("boe", { date: "2024-06-11" }));
  assert.deepEqual(
    day.items.map((i: any) => [i.id, i.section, i.heading, i.pages]),
    [
      ["BOE-A-2024-11776", "1", "Amnistía", "67553-67575"],
      ["BOE-A-2024-11777", "1", "Impuesto sobre el Valor Añadido", "67576-67580"],
      ["BOE-A-2024-11790", "2A", null, "67612"],
    ],
  );
  const announcements = dataOf(await service.call("boe", { date: "2024-06-11", section: "5A" }));
  assert.deepEqual(
    announcements.items.map((i: any) => i.id),
    ["BOE-B-2024-19990"],
  );
  const none = dataOf(await service.call("boe", { date: "2024-06-11", q: "zzxqv" }));
  assert.deepEqual([none.total, none.items], [0, []]);
});

test("boe: a day with no issue is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (no summary for the date: 404 with status code 404)`,
      request: { method: "GET", path: "/datosabiertos/api/boe/sumario/20240609" },
      response: {
        status: 404,
        headers: { "content-type": "application/xml" },
        body: '<?xml version="1.0" encoding="utf-8"?><response><status><code>404</code><text>La información solicitada no existe</text></status><data/></response>',
      },
    },
  ]);
  expectNotFound(await (await serviceFor(api.url)).call("boe", { date: "2024-06-09" }));
});

test("boe: the date defaults to today (the service clock)", async (t) => {
  const api = await serveFixtures(
    t,
    [
      failing(
        "GET",
        `/datosabiertos/api/boe/sumario/${new Date().toISOString().slice(0, 10).replaceAll("-", "")}`,
        docs,
      ),
    ],
    { reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("boe", {}));
  assert.ok(api.calls.length >= 1);
});

test("boe: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/boe?date=20240611"), "date");
  await expectFree400(await service.request("/v1/boe?section=6"), "section");
  assert.equal(api.calls.length, 0);
});
