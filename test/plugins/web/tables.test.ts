import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, errorOf } from "../../helpers/expect.ts";
import tablesEndpoint from "../../../plugins/web/tables.ts";

const page = `<html><body>
<table><caption>Concerts</caption>
  <thead><tr><th>Date</th><th>Event</th><th>Venue</th></tr></thead>
  <tbody>
    <tr><td>12 February</td><td>Waltz with Strauss</td><td rowspan="2">Main Hall</td></tr>
    <tr><td>24 March</td><td>The Obelisks</td></tr>
    <tr><td colspan="2">14 April: The What</td><td>West Wing</td></tr>
    <tr><td></td><td> </td><td></td></tr>
  </tbody>
</table>
<table>
  <tr><th>Name</th><th>Name</th><th></th></tr>
  <tr><td>a</td><td>b <table><tr><td>nested</td></tr></table></td><td>c</td></tr>
</table>
<table><tr><td>x</td><td>1</td></tr><tr><td>y</td><td>2</td></tr></table>
</body></html>`;

const site = await startTarget({ "/tables": { body: page }, "/gone": { status: 404, body: "no" } });
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: site.port });
after(() => site.close());

test("tables: rows keyed by <thead> headers with spans expanded and blank rows dropped", async () => {
  const out = await service.call(tablesEndpoint, { url: site.url("/tables") });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.tableCount, 4);
  const [concerts] = data.tables;
  assert.equal(concerts.caption, "Concerts");
  assert.deepEqual(concerts.headers, ["Date", "Event", "Venue"]);
  assert.equal(concerts.headerDetected, true);
  assert.deepEqual(concerts.rows, [
    { Date: "12 February", Event: "Waltz with Strauss", Venue: "Main Hall" },
    { Date: "24 March", Event: "The Obelisks", Venue: "Main Hall" },
    { Date: "14 April: The What", Event: "14 April: The What", Venue: "West Wing" },
  ]);
  assert.equal(concerts.rowCount, 3);
});

test("tables: a first row of <th> is the header; repeats and blanks get names; nested tables stay apart", async () => {
  const data = (await service.call(tablesEndpoint, { url: site.url("/tables") })).body as any;
  const second = data.data.tables[1];
  assert.deepEqual(second.headers, ["Name", "Name_2", "column_3"]);
  assert.deepEqual(second.rows, [{ Name: "a", Name_2: "b nested", column_3: "c" }]);
  const nested = data.data.tables[2];
  assert.deepEqual(nested.rows, [{ column_1: "nested" }]);
  const plain = data.data.tables[3];
  assert.equal(plain.headerDetected, false);
  assert.deepEqual(plain.rows, [
    { column_1: "x", column_2: "1" },
    { column_1: "y", column_2: "2" },
  ]);
});

test("tables: limit and maxRows cut the answer and say so", async () => {
  const out = await service.call(tablesEndpoint, { url: site.url("/tables"), limit: 1, maxRows: 2 });
  const data = dataOf(out);
  assert.equal(data.tables.length, 1);
  assert.equal(data.tableCount, 4);
  assert.equal(data.tables[0].rows.length, 2);
  assert.equal(data.tables[0].rowCount, 3);
  assert.equal(data.tables[0].truncated, true);
});

test("tables: a target answering 404 is a 502", async () => {
  const out = await service.call(tablesEndpoint, { url: site.url("/gone") });
  assert.equal(out.status, 502);
  assert.equal(errorOf(out).details?.status, 404);
});

test("tables: bad input is a free 400 and fetches nothing", async () => {
  const before = site.hits.length;
  const res = await service.request(`/v1/tables?url=${encodeURIComponent(site.url("/tables"))}&limit=0`);
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.ok(
    body.error.details.issues.some((i: any) => i.field === "limit"),
    JSON.stringify(body),
  );
  assert.equal(site.hits.length, before);
});

test("tables: a private target is refused with a 400", async () => {
  const out = await service.call(tablesEndpoint, { url: "http://10.0.0.1/" });
  assert.equal(out.status, 400);
  assert.equal(errorOf(out).code, "invalid_input");
});
