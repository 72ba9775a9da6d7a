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
import federalRegister from "../../../plugins/publicdata/federal-register.ts";

const serviceFor = (url: string) => publicdataService({ UPSTREAM_FEDERAL_REGISTER_URL: `${url}/api/v1` });
const docs = "https://www.federalregister.gov/developers/documentation/api/v1";
const fieldParams = [
  "document_number",
  "title",
  "type",
  "abstract",
  "publication_date",
  "agencies",
  "html_url",
  "pdf_url",
].map((f) => ["fields[]", f]);

test("federal-register: one document by number in our shape", async (t) => {
  const api = await serveFixtures(t, ["federal-register.pfas-rule"], { dir });
  assert.deepEqual(
    dataOf(await (await serviceFor(api.url)).call("federal-register", federalRegister.example.input)),
    federalRegister.example.output,
  );
});

test("federal-register: a search sends the conditions and keeps the count", async (t) => {
  const doc = (await import("./fixtures/federal-register.pfas-rule.json", { with: { type: "json" } })).default.response
    .body;
  const query = new URLSearchParams([
    ...fieldParams,
    ["conditions[term]", "PFAS"],
    ["conditions[type][]", "RULE"],
    ["conditions[agencies][]", "environmental-protection-agency"],
    ["conditions[publication_date][gte]", "2024-01-01"],
    ["per_page", "5"],
    ["order", "newest"],
  ]);
  const api = await serveFixtures(t, [
    {
      source: `${docs} (GET /documents.json: {count, description, total_pages, next_page_url, results[]})`,
      request: { method: "GET", path: `/api/v1/documents.json?${query}` },
      response: {
        status: 200,
        body: {
          count: 14,
          description: "Documents matching 'PFAS'",
          total_pages: 3,
          next_page_url: "https://www.federalregister.gov/api/v1/documents.json?page=2",
          results: [doc],
        },
      },
    },
  ]);
  const data = dataOf(
    await (await serviceFor(api.url)).call("federal-register", {
      q: "PFAS",
      type: "RULE",
      agency: "environmental-protection-agency",
      since: "2024-01-01",
      limit: 5,
    }),
  );
  assert.equal(data.total, 14);
  assert.equal(data.documents[0].id, "2024-07773");
});

test("federal-register: no match is an empty list; an unknown number is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: `${docs} (a search without matches: count 0, no results key)`,
      request: {
        method: "GET",
        path: `/api/v1/documents.json?${new URLSearchParams([...fieldParams, ["conditions[term]", "zzqxv"], ["per_page", "20"], ["order", "newest"]])}`,
      },
      response: { status: 200, body: { count: 0, description: "Documents matching 'zzqxv'" } },
    },
    {
      source: `${docs} (unknown document number: 404 {status, message})`,
      request: { method: "GET", path: `/api/v1/documents/2099-99999.json?${new URLSearchParams(fieldParams)}` },
      response: { status: 404, body: { status: 404, message: "Could not find the document with number 2099-99999" } },
    },
  ]);
  const service = await serviceFor(api.url);
  assert.deepEqual(dataOf(await service.call("federal-register", { q: "zzqxv" })), { total: 0, documents: [] });
  expectNotFound(await service.call("federal-register", { id: "2099-99999" }));
});

test("federal-register: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [failing("GET", `/api/v1/documents/2024-07773.json?${new URLSearchParams(fieldParams)}`, docs)],
    { reuse: true },
  );
  expectUpstreamFailure(await (await serviceFor(api.url)).call("federal-register", federalRegister.example.input));
});

test("federal-register: bad input is a free 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  await expectFree400(await service.request("/v1/federal-register?type=LAW"), "type");
  await expectFree400(await service.request("/v1/federal-register?agency=EPA%26x%3D1"), "agency");
  await expectFree400(await service.request("/v1/federal-register?id=..%2Fagencies"), "id");
  assert.equal(api.calls.length, 0);
});
