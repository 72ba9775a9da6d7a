import { after, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expectFree400, expectRefused, query } from "./_web-expect.ts";

let inFlight = 0;
let mostInFlight = 0;
const target = await startTarget({
  "/ok": { body: "fine" },
  "/missing": { status: 404, body: "no" },
  "/old": { status: 301, headers: { location: "/ok" } },
  "/no-head": (req, res) =>
    void res
      .writeHead(req.method === "HEAD" ? 405 : 200, { "content-type": "text/plain" })
      .end(req.method === "HEAD" ? undefined : "got it"),
  "/hang-up": "hang-up",
});
for (let i = 0; i < 6; i++) {
  target.set(`/slow/${i}`, async (_req, res) => {
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    await sleep(100);
    inFlight--;
    res.writeHead(204).end();
  });
}
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
after(() => target.close());

test("links: checks each link and keeps the order", async () => {
  const urls = ["/ok", "/missing", "/old"].map(target.url);
  const data = dataOf(await service.call("links", { urls }));
  assert.equal(data.total, 3);
  assert.equal(data.ok, 2);
  assert.equal(data.broken, 1);
  assert.deepEqual(
    data.results.map((r: any) => [r.url, r.ok, r.status, r.redirects]),
    [
      [urls[0], true, 200, 0],
      [urls[1], false, 404, 0],
      [urls[2], true, 200, 1],
    ],
  );
  assert.equal(data.results[2].finalUrl, target.url("/ok"));
  assert.equal(data.results[0].contentType, "text/html");
  assert.ok(data.results.every((r: any) => r.latencyMs > 0 && r.error === null));
});

test("links: HEAD refused with 405 falls back to GET", async () => {
  const data = dataOf(await service.call("links", { urls: [target.url("/no-head")] }));
  assert.equal(data.results[0].ok, true);
  assert.deepEqual(
    target.hits.filter((h) => h.path === "/no-head").map((h) => h.method),
    ["HEAD", "GET"],
  );
});

test("links: a link that hangs up or does not resolve is broken, the call still answers", async () => {
  const data = dataOf(
    await service.call("links", { urls: [target.url("/hang-up"), "http://nothing-here.invalid/", target.url("/ok")] }),
  );
  assert.deepEqual(
    data.results.map((r: any) => r.ok),
    [false, false, true],
  );
  assert.match(data.results[0].error, /could not reach/);
  assert.ok(data.results[1].error, JSON.stringify(data.results[1]));
  assert.equal(data.results[1].status, null);
  assert.equal(data.broken, 2);
});

test("links: at most four requests run at once against one host", async () => {
  const urls = Array.from({ length: 6 }, (_, i) => target.url(`/slow/${i}`));
  const data = dataOf(await service.call("links", { urls }));
  assert.equal(data.ok, 6);
  assert.equal(mostInFlight, 4);
});

test("links: bad input is a free 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  const many = Array.from({ length: 21 }, (_, i) => target.url(`/ok?${i}`));
  await expectFree400(
    await service.request(`/v1/links?${many.map((u) => `urls=${encodeURIComponent(u)}`).join("&")}`),
    "urls",
  );
  await expectFree400(await service.request("/v1/links"), "urls");
  await expectFree400(
    await service.request(`/v1/links?${query({ urls: `${target.url("/ok")},not-a-url` })}`),
    "urls.1",
  );
  assert.equal(target.hits.length, before);
});

test("links: one private URL refuses the whole call before any request", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("links", { urls: [target.url("/ok"), "http://10.0.0.1/"] }), /private/);
  assert.equal(target.hits.length, before);
});
