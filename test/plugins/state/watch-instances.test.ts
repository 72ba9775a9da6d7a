import { after, test } from "node:test";
import assert from "node:assert/strict";
import { watchJob } from "../../../plugins/state/_watch-job.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expectFree400, query } from "../web/_web-expect.ts";
import { alice, instance, page, receiver, world } from "./_watch-harness.ts";
import { errorOf } from "../../helpers/expect.ts";
import watchEndpoint from "../../../plugins/state/watch.ts";
import watchStatus from "../../../plugins/state/watch-status.ts";

const target = await startTarget({ "/missing": { status: 404, body: "no such page" } });
after(() => target.close());

test("two instances on one store: a due check and its delivery run once, even when both work at the same moment", async () => {
  const w = world();
  const [a, b] = await Promise.all([instance(w, target), instance(w, target)]);
  target.set("/shared", { body: page("One") });
  const hook = receiver(target, "/shared-hook");
  const created = dataOf(
    await a.callAs(alice, watchEndpoint, { url: target.url("/shared"), webhook: hook.url, interval: 300 }),
  );
  hook.useSecret(created.secret);
  target.set("/shared", { body: page("Two") });
  w.advance(300);
  const pageReads = target.hits.filter((h) => h.path === "/shared").length;
  await Promise.all([watchJob.run(a.jobContext()), watchJob.run(b.jobContext())]);
  assert.equal(target.hits.filter((h) => h.path === "/shared").length - pageReads, 1, "one check");
  assert.equal(hook.got.length, 1, "one delivery");
  assert.equal(dataOf(await b.callAs(alice, watchStatus, { id: created.id })).checks, 1);
});

test("after a restart, a new instance on the same store resumes a pending retry and the watch's schedule", async () => {
  const w = world();
  const first = await instance(w, target);
  target.set("/restart", { body: page("One") });
  const hook = receiver(target, "/restart-hook", 1);
  const created = dataOf(
    await first.callAs(alice, watchEndpoint, { url: target.url("/restart"), webhook: hook.url, interval: 300 }),
  );
  hook.useSecret(created.secret);
  target.set("/restart", { body: page("Two") });
  w.advance(300);
  await first.tick();
  assert.equal(hook.got.length, 1);
  await first.close();

  const second = await instance(w, target);
  w.advance(30);
  await second.tick();
  assert.equal(hook.got.length, 2);
  assert.equal(hook.got[1].headers["x-webhook-attempt"], "2");
  target.set("/restart", { body: page("Three") });
  w.advance(270);
  await second.tick();
  const read = dataOf(await second.callAs(alice, watchStatus, { id: created.id }));
  assert.deepEqual(
    read.deliveries.map((d: any) => d.status),
    ["delivered", "delivered"],
  );
  assert.equal(read.changes, 2);
});

test("a wallet's live watches are capped (WATCH_MAX_PER_WALLET); an expired one frees its slot", async () => {
  const w = world();
  const service = await instance(w, target, { WATCH_MAX_PER_WALLET: "2" });
  target.set("/capped", { body: page("One") });
  const hook = receiver(target, "/capped-hook");
  const create = () =>
    service.callAs(alice, watchEndpoint, { url: target.url("/capped"), webhook: hook.url, interval: 300, ttl: 3600 });
  dataOf(await create());
  dataOf(await create());
  const third = await create();
  assert.equal(third.status, 409);
  assert.equal(errorOf(third).code, "watch_limit_reached");
  w.advance(3600);
  dataOf(await create());
});

test("creation refusals leave nothing behind", async () => {
  const w = world();
  const service = await instance(w, target);
  target.set("/fine", { body: page("One") });
  const hook = receiver(target, "/fine-hook");
  const cases: [Record<string, unknown>, number, RegExp][] = [
    [{ webhook: "http://10.1.2.3/hook" }, 400, /10\.1\.2\.3 is/],
    [{ webhook: "http://169.254.169.254/latest" }, 400, /169\.254\.169\.254 is/],
    [{ url: target.url("/missing") }, 502, /HTTP 404/],
    [{ mode: "status", selector: "h1" }, 400, /selector applies/],
    [{ selector: "p[" }, 400, /not a valid CSS selector/],
    [{ interval: 7200, ttl: 3600 }, 400, /at least one interval/],
  ];
  for (const [change, status, message] of cases) {
    const out = await service.callAs(alice, watchEndpoint, { url: target.url("/fine"), webhook: hook.url, ...change });
    assert.equal(out.status, status, JSON.stringify(out.body));
    assert.match(errorOf(out).message, message);
  }
  assert.deepEqual(await w.store.keys("state:"), []);
  const anonymous = await service.call(watchEndpoint, { url: target.url("/fine"), webhook: hook.url });
  assert.equal(anonymous.status, 403);
});

const bad: { name: string; params: Record<string, string | number>; field: string }[] = [
  { name: "missing webhook", params: { url: "https://example.com/" }, field: "webhook" },
  {
    name: "a webhook that is not http(s)",
    params: { url: "https://example.com/", webhook: "ftp://example.com/x" },
    field: "webhook",
  },
  {
    name: "interval under 300 s",
    params: { url: "https://example.com/", webhook: "https://example.com/h", interval: 60 },
    field: "interval",
  },
  {
    name: "ttl over 7 days",
    params: { url: "https://example.com/", webhook: "https://example.com/h", ttl: 604_801 },
    field: "ttl",
  },
  {
    name: "unknown mode",
    params: { url: "https://example.com/", webhook: "https://example.com/h", mode: "diff" },
    field: "mode",
  },
];
for (const c of bad) {
  test(`watch: ${c.name} is a free 400 naming the field, and nothing is fetched`, async () => {
    const service = await instance(world(), target);
    const hits = target.hits.length;
    await expectFree400(await service.request(`/v1/watch?${query(c.params)}`), c.field);
    assert.equal(target.hits.length, hits);
  });
}

test("watch-status: an id that is not a UUID is a free 400; a valid one without payment is a 402", async () => {
  const service = await instance(world(), target);
  await expectFree400(await service.request("/v1/watch-status?id=abc"), "id");
  const res = await service.request("/v1/watch-status?id=6f1c9a52-0d4b-4e8a-9f3e-2b7c5d1a8e40");
  assert.equal(res.status, 402);
  assert.equal((await res.json()).accepts[0].maxAmountRequired, "5000");
});
