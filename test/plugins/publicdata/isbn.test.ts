import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf, expectFree400, issuesOf } from "../../helpers/expect.ts";
import isbnEndpoint from "../../../plugins/publicdata/isbn.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceFor = (url: string) =>
  startTestService({ plugins: ["publicdata"], env: { UPSTREAM_OPEN_LIBRARY_URL: url } });

test("isbn: an ISBN-10 is checked, converted and looked up", async (t) => {
  const api = await serveFixtures(t, ["open-library.fantastic-mr-fox"], { dir });
  const out = await (await serviceFor(api.url)).call(isbnEndpoint, { isbn: "0-14-032872-6" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const book = dataOf(out);
  assert.deepEqual(
    [book.isbn10, book.isbn13, book.title, book.authors, book.pages],
    ["0140328726", "9780140328721", "Fantastic Mr. Fox", ["Roald Dahl"], 96],
  );
  assert.equal(book.cover, "https://covers.openlibrary.org/b/id/8739161-L.jpg");
});

test("isbn: an ISBN-13 with hyphens gives the same book", async (t) => {
  const api = await serveFixtures(t, ["open-library.fantastic-mr-fox"], { dir });
  const book = dataOf(await (await serviceFor(api.url)).call(isbnEndpoint, { isbn: "978-0-14-032872-1" }));
  assert.equal(book.isbn10, "0140328726");
});

test("isbn: a valid ISBN Open Library lacks is a 404", async (t) => {
  const api = await serveFixtures(t, [
    {
      source: "https://openlibrary.org/dev/docs/api/books (unknown ISBN: an empty object)",
      request: { method: "GET", path: "/api/books?bibkeys=ISBN:9780306406157&format=json&jscmd=data" },
      response: { status: 200, body: {} },
    },
  ]);
  assert.equal((await (await serviceFor(api.url)).call(isbnEndpoint, { isbn: "9780306406157" })).status, 404);
});

test("isbn: a failing API is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      {
        source: "https://openlibrary.org/dev/docs/api/books",
        request: { method: "GET", path: "/api/books?bibkeys=ISBN:9780140328721&format=json&jscmd=data" },
        response: { status: 500, body: "error" },
      },
    ],
    { reuse: true },
  );
  const out = await (await serviceFor(api.url)).call(isbnEndpoint, { isbn: "9780140328721" });
  assert.equal(out.status, 502);
});

test("isbn: a wrong check digit or bad input is a 400 and calls nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceFor(api.url);
  const wrong = await service.call(isbnEndpoint, { isbn: "9780140328722" });
  assert.equal(wrong.status, 400);
  assert.equal(issuesOf(wrong)[0].field, "isbn");
  await expectFree400(await service.request("/v1/isbn?isbn=abc"), "isbn");
  await expectFree400(await service.request("/v1/isbn"), "isbn");
  assert.equal(api.calls.length, 0);
});
