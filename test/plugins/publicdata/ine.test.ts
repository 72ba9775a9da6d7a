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
import ine from "../../../plugins/publicdata/ine.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_INE_URL: `${url}/wstempus/js` });
const docs = "https://www.ine.es/dyngs/DataLab/manual.html?cid=47";

test("ine: a series keeps the newest N observations, dates as days", async (t) => {
  const api = await serveFixtures(t, ["ine.ipc251856-2024"], { dir });
  const data = dataOf(await (await serviceFor(api.url)).call("ine", ine.example.input));
  assert.deepEqual({ ...data, total: 2 }, ine.example.output);
  assert.equal(data.total, 12);
});

test("ine: since becomes INE's date range; secret values are null", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (date=aaaammdd: from a day on)`,
      request: { method: "GET", path: "/wstempus/js/ES/DATOS_SERIE/EPA815?tip=A&date=20240101%3A" },
      response: {
        status: 200,
        body: {
          COD: "EPA815",
          Nombre: "Total Nacional. Tasa de paro de la población. Ambos sexos. 16 y más años. ",
          T3_Unidad: "Porcentaje",
          T3_Escala: " ",
          Data: [
            {
              Fecha: "2024-01-01T00:00:00.000+01:00",
              T3_TipoDato: "Definitivo",
              T3_Periodo: "T1",
              Anyo: 2024,
              Valor: 12.29,
              Secreto: false,
            },
            {
              Fecha: "2024-04-01T00:00:00.000+02:00",
              T3_TipoDato: "Definitivo",
              T3_Periodo: "T2",
              Anyo: 2024,
              Valor: 0,
              Secreto: true,
            },
          ],
        },
      },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url)).call("ine", { series: "epa815", since: "2024-01-01", lang: "ES" }),
  );
  assert.deepEqual(
    data.observations.map((o: any) => [o.date, o.period, o.value]),
    [
      ["2024-01-01", "T1", 12.29],
      ["2024-04-01", "T2", null],
    ],
  );
  assert.equal(data.unit, "Porcentaje");
});

test("ine: an unknown code is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (an unknown code answers an empty body)`,
      request: { method: "GET", path: "/wstempus/js/EN/DATOS_SERIE/XYZ1?tip=A" },
      response: { status: 200, body: "" },
    },
    {
      source: `${docs} (or a status message instead of a series)`,
      request: { method: "GET", path: "/wstempus/js/EN/DATOS_SERIE/XYZ2?tip=A" },
      response: { status: 200, body: { status: "El elemento no existe" } },
    },
  ]);
  const service = await serviceFor(api.url);
  expectNotFound(await service.call("ine", { series: "XYZ1" }));
  expectNotFound(await service.call("ine", { series: "XYZ2" }));
});

test("ine: a failing API is a 502", async (t) => {
  const api = await serveFixtures(t, [failing("GET", "/wstempus/js/EN/DATOS_SERIE/IPC251856?tip=A", docs)], {
    reuse: true,
  });
  expectUpstreamFailure(await (await serviceFor(api.url)).call("ine", { series: "IPC251856" }));
});

test("ine: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/ine"), "series");
  await expectFree400(await service.request("/v1/ine?series=../OPERACIONES"), "series");
  await expectFree400(await service.request("/v1/ine?series=IPC251856&lang=FR"), "lang");
  assert.equal(api.calls.length, 0);
});
