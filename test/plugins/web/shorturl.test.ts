import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { shortUrlKey, type ShortUrlRecord } from "../../../plugins/web/_shorturls.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expectFree400, expectRefused, query } from "./_web-expect.ts";

const target = await startTarget({ "/page": { body: "hello" } });
const service = await startTestService({
  plugins: ["web"],
  egressLoopbackPort: target.port,
  env: { BASE_URL: "https://short.test/" },
});
after(() => target.close());
const store = service.runtime.store;
const stored = () => store.keys("web:shorturl:");

test("shorturl: stores the target under a fresh code and returns the short link", async () => {
  const started = Date.now();
  const data = dataOf(await service.call("shorturl", { url: target.url("/page?a=1"), ttlDays: 7 }));
  assert.match(data.code, /^[A-HJ-NP-Za-km-np-z2-9]{7}$/);
  assert.equal(data.shortUrl, `https://short.test/s/${data.code}`);
  assert.equal(data.target, target.url("/page?a=1"));
  const expires = Date.parse(data.expiresAt) - started;
  assert.ok(expires >= 7 * 86_400_000 - 1000 && expires <= 7 * 86_400_000 + 1000, String(expires));
  const record = await store.get<ShortUrlRecord>(shortUrlKey(data.code));
  assert.equal(record?.url, target.url("/page?a=1"));
  assert.equal(record?.expiresAt, data.expiresAt);
  assert.equal(target.hits.length, 0, "the target is checked, never fetched");
});

test("shorturl: every call makes a new code, even for the same URL", async () => {
  const first = dataOf(await service.call("shorturl", { url: target.url("/page") }));
  const second = dataOf(await service.call("shorturl", { url: target.url("/page") }));
  assert.notEqual(first.code, second.code);
  const expires = Date.parse(first.expiresAt) - Date.now();
  assert.ok(expires > 29 * 86_400_000 && expires <= 30 * 86_400_000, "30 days by default");
});

test("shorturl: bad input is a free 400 and nothing is stored", async () => {
  const before = (await stored()).length;
  await expectFree400(
    await service.request(`/v1/shorturl?${query({ url: target.url("/page"), ttlDays: 0 })}`),
    "ttlDays",
  );
  await expectFree400(
    await service.request(`/v1/shorturl?${query({ url: target.url("/page"), ttlDays: 366 })}`),
    "ttlDays",
  );
  await expectFree400(await service.request(`/v1/shorturl?${query({ url: "data:text/html,hi" })}`), "url");
  assert.equal((await stored()).length, before);
});

test("shorturl: a private target is refused and nothing is stored", async () => {
  const before = (await stored()).length;
  expectRefused(await service.call("shorturl", { url: "http://10.0.0.1/admin" }), /private/);
  expectRefused(await service.call("shorturl", { url: "http://127.0.0.1/" }), /loopback/);
  assert.equal((await stored()).length, before);
});

test("shorturl: following /s/<code> is free: a 302 to the target while it lives, a 404 page after or for unknown codes", async () => {
  const data = dataOf(await service.call("shorturl", { url: target.url("/page?b=2"), ttlDays: 1 }));
  const follow = await service.request(`/s/${data.code}`, { redirect: "manual" });
  assert.equal(follow.status, 302);
  assert.equal(follow.headers.get("location"), target.url("/page?b=2"));
  const unknown = await service.request("/s/zzzzzzz");
  assert.equal(unknown.status, 404);
  assert.match(await unknown.text(), /No such link/);
  const hostile = await service.request(`/s/${encodeURIComponent("<b>x</b>")}`);
  assert.equal(hostile.status, 404);
  assert.doesNotMatch(await hostile.text(), /<b>x<\/b>/);
  await store.set(shortUrlKey(data.code), {
    ...(await store.get<ShortUrlRecord>(shortUrlKey(data.code)))!,
    expiresAt: new Date(Date.now() - 1000).toISOString(),
  });
  assert.equal((await service.request(`/s/${data.code}`)).status, 404);
});
