import { after, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import type { X402Gate } from "../../../core/x402/offers.ts";
import { importFamily } from "../../../core/runtime/load.ts";
import type { Plugin } from "../../../core/endpoint.ts";
import { settlingGate, startTestService } from "../../helpers/service.ts";
import { effectsTwice, paying } from "../_effects.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { query } from "./_web-expect.ts";

const web = await importFamily("web");

const target = await startTarget({ "/page": { body: "hello" } });
after(() => target.close());

async function service(t: TestContext, payments: X402Gate, plugin?: Plugin) {
  const s = await startTestService({
    plugins: ["web"],
    payments,
    egressLoopbackPort: target.port,
    given: plugin && [plugin],
  });
  t.after(() => s.close());
  const shorten = () =>
    s.request(`/v1/shorturl?${query({ url: target.url("/page"), ttlDays: 1 })}`, { headers: paying });
  return { ...s, shorten, links: () => s.runtime.store.keys("web:shorturl:") };
}

test("shorturl: a call whose settlement fails answers 402 and stores no link", async (t) => {
  const s = await service(t, settlingGate({ settles: false }));
  assert.equal((await s.shorten()).status, 402);
  assert.deepEqual(await s.links(), []);
});

test("shorturl: a settled call stores exactly its one link, which redirects", async (t) => {
  const s = await service(t, settlingGate());
  const res = await s.shorten();
  assert.equal(res.status, 200);
  const { code } = (await res.json()).data;
  assert.deepEqual(await s.links(), [`web:shorturl:${code}`]);
  const follow = await s.request(`/s/${code}`, { redirect: "manual" });
  assert.equal(follow.status, 302);
  assert.equal(follow.headers.get("location"), target.url("/page"));
});

test("shorturl: 8 concurrent settled calls store exactly 8 links under 8 codes", async (t) => {
  const s = await service(t, settlingGate());
  const answers = await Promise.all(Array.from({ length: 8 }, async () => (await (await s.shorten()).json()).data));
  assert.equal(new Set(answers.map((a) => a.code)).size, 8);
  assert.deepEqual((await s.links()).sort(), answers.map((a) => `web:shorturl:${a.code}`).sort());
});

test("shorturl: an effect run a second time (a retry) keeps the one link it made", async (t) => {
  const twice = effectsTwice(web);
  const s = await service(t, settlingGate(), twice);
  const res = await s.shorten();
  assert.equal(res.status, 200);
  assert.deepEqual(twice.failed, [], "the second run finds its own record, not a taken code");
  const { code } = (await res.json()).data;
  assert.deepEqual(await s.links(), [`web:shorturl:${code}`]);
});
