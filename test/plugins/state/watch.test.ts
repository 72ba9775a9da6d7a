import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf } from "../web/_web-expect.ts";
import { alice, bob, instance, page, receiver, world } from "./_watch-harness.ts";
import { errorOf } from "../../helpers/expect.ts";
import watchEndpoint from "../../../plugins/state/watch.ts";
import watchStatus from "../../../plugins/state/watch-status.ts";

const target = await startTarget();
after(() => target.close());

async function setup(path: string, failFirst = 0, watchInput: Record<string, unknown> = {}) {
  const w = world();
  const service = await instance(w, target);
  target.set(`/${path}`, { body: page("Version one") });
  const hook = receiver(target, `/${path}-hook`, failFirst);
  const created = dataOf(
    await service.callAs(alice, watchEndpoint, {
      url: target.url(`/${path}`),
      webhook: hook.url,
      interval: 300,
      ...watchInput,
    }),
  );
  hook.useSecret(created.secret);
  const status = async () => dataOf(await service.callAs(alice, watchStatus, { id: created.id }));
  return { w, service, hook, created, status };
}

test("a watch fires a signed webhook when the page's text changes, and the receiver verifies the signature", async () => {
  const { w, service, hook, created, status } = await setup("news");
  assert.match(created.secret, /^whsec_[\w-]{32}$/);
  assert.equal(created.signatureHeader, "X-Signature");
  assert.equal(created.mode, "text");
  assert.equal(created.nextCheckAt, "2026-11-23T10:05:00.000Z");
  assert.equal(created.expiresAt, "2026-11-24T10:00:00.000Z");
  assert.equal(created.baseline.excerpt, "Version one\n42");

  w.advance(300);
  await service.tick();
  target.set("/news", { body: page("Version one", "restyled") });
  w.advance(300);
  await service.tick();
  assert.equal(hook.got.length, 0, "unchanged text, then a markup-only change: no event in text mode");
  assert.equal((await status()).checks, 2);

  target.set("/news", { body: page("Version two") });
  w.advance(300);
  await service.tick();
  assert.equal(hook.got.length, 1);
  const [event] = hook.got;
  assert.equal(event.signatureValid, true);
  assert.equal(event.headers["content-type"], "application/json");
  assert.equal(event.headers["x-webhook-id"], event.body.id);
  assert.equal(event.headers["x-webhook-event"], "watch.changed");
  assert.equal(event.headers["x-webhook-attempt"], "1");
  assert.equal(event.body.type, "watch.changed");
  assert.equal(event.body.watchId, created.id);
  assert.equal(event.body.url, target.url("/news"));
  assert.equal(event.body.previous.excerpt, "Version one\n42");
  assert.equal(event.body.current.excerpt, "Version two\n42");
  assert.equal(event.body.createdAt, "2026-11-23T10:15:00.000Z");

  const after = await status();
  assert.equal(after.status, "active");
  assert.equal(after.checks, 3);
  assert.equal(after.changes, 1);
  assert.equal(after.lastChangedAt, "2026-11-23T10:15:00.000Z");
  assert.equal(after.nextCheckAt, "2026-11-23T10:20:00.000Z");
  assert.deepEqual(
    after.deliveries.map((d: any) => [d.id, d.status, d.attempts, d.lastStatus]),
    [[event.body.id, "delivered", 1, 200]],
  );
  assert.equal("secret" in after, false, "the secret is shown only at creation");
});

test("retries: the receiver fails twice, the third attempt after 30 s and 2 min delivers the same signed event", async () => {
  const { w, service, hook, status } = await setup("prices", 2);
  target.set("/prices", { body: page("Version two") });
  w.advance(300);
  await service.tick();
  let delivery = (await status()).deliveries[0];
  assert.deepEqual([delivery.status, delivery.attempts, delivery.lastStatus], ["pending", 1, 500]);
  assert.equal(delivery.lastError, "the receiver answered HTTP 500");
  assert.equal(delivery.nextAttemptAt, "2026-11-23T10:05:30.000Z");

  w.advance(15);
  await service.tick();
  assert.equal(hook.got.length, 1, "not due yet");
  w.advance(15);
  await service.tick();
  delivery = (await status()).deliveries[0];
  assert.deepEqual(
    [delivery.status, delivery.attempts, delivery.nextAttemptAt],
    ["pending", 2, "2026-11-23T10:07:30.000Z"],
  );
  w.advance(120);
  await service.tick();
  delivery = (await status()).deliveries[0];
  assert.deepEqual(
    [delivery.status, delivery.attempts, delivery.lastStatus, delivery.deliveredAt],
    ["delivered", 3, 200, "2026-11-23T10:07:30.000Z"],
  );

  assert.equal(hook.got.length, 3);
  assert.ok(hook.got.every((r) => r.signatureValid));
  assert.deepEqual(
    hook.got.map((r) => r.headers["x-webhook-attempt"]),
    ["1", "2", "3"],
  );
  assert.equal(new Set(hook.got.map((r) => r.raw)).size, 1, "every retry sends the same body and id");
});

test("a receiver that never accepts is given up after 6 attempts, on the documented backoff", async () => {
  const { w, service, hook, status } = await setup("gone", 99, { interval: 86_400, ttl: 604_800 });
  target.set("/gone", { body: page("Changed") });
  w.advance(86_400);
  await service.tick();
  for (const seconds of [30, 120, 600, 3600, 14_400]) {
    w.advance(seconds);
    await service.tick();
  }
  const [delivery] = (await status()).deliveries;
  assert.deepEqual([delivery.status, delivery.attempts, delivery.nextAttemptAt], ["failed", 6, null]);
  w.advance(86_400 - 18_750 - 1);
  await service.tick();
  assert.equal(hook.got.length, 6, "no attempt after the last");
});

test("status mode fires on a new status code; text mode records an error page as a check error, not a change", async () => {
  const statusWatch = await setup("health", 0, { mode: "status" });
  const textWatch = await setup("health-text");
  target.set("/health", { status: 503, body: "maintenance" });
  target.set("/health-text", { status: 503, body: "maintenance" });
  for (const s of [statusWatch, textWatch]) {
    s.w.advance(300);
    await s.service.tick();
  }
  assert.equal(statusWatch.hook.got.length, 1);
  assert.deepEqual(
    [statusWatch.hook.got[0].body.previous.status, statusWatch.hook.got[0].body.current.status],
    [200, 503],
  );
  assert.equal(textWatch.hook.got.length, 0);
  const text = await textWatch.status();
  assert.equal(text.lastError, "the target answered HTTP 503");
  assert.equal(text.changes, 0);
  assert.equal(text.current.excerpt, "Version one\n42", "still compared with the last good page");
});

test("a selector watches only the matching elements", async () => {
  const { w, service, hook } = await setup("shop", 0, { selector: "#price" });
  target.set("/shop", { body: page("A new headline") });
  w.advance(300);
  await service.tick();
  assert.equal(hook.got.length, 0);
  target.set("/shop", { body: page("A new headline").replace(">42<", ">43<") });
  w.advance(300);
  await service.tick();
  assert.equal(hook.got.length, 1);
  assert.equal(hook.got[0].body.current.excerpt, "43");
});

test("an expired watch is no longer checked and reads as expired", async () => {
  const { w, service, hook, status } = await setup("short", 0, { ttl: 3600 });
  w.advance(3600);
  target.set("/short", { body: page("Changed after expiry") });
  await service.tick();
  assert.equal(hook.got.length, 0);
  const read = await status();
  assert.equal(read.status, "expired");
  assert.equal(read.nextCheckAt, null);
});

test("watch-status belongs to the creating wallet: another wallet or an unknown id is 404, no wallet 403", async () => {
  const { service, created } = await setup("private");
  assert.equal((await service.callAs(bob, watchStatus, { id: created.id })).status, 404);
  assert.equal((await service.callAs(alice, watchStatus, { id: "6f1c9a52-0d4b-4e8a-9f3e-2b7c5d1a8e40" })).status, 404);
  const anonymous = await service.call(watchStatus, { id: created.id });
  assert.equal(anonymous.status, 403);
  assert.equal(errorOf(anonymous).code, "wallet_required");
});
