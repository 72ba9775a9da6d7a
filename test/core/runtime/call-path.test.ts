import { after, it } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";

// The call path awaits only where a step has to (core/runtime/invoke.ts): a 402 or a 400 is answered inside
// the request event, without a promise, which is worth +16% on the 402 path (bench/findings.md). A stray
// `async` anywhere on the way would lose that without failing any other test.
const service = await startTestService({ plugins: ["converters", "site"] });
const limited = await startTestService({ plugins: ["converters"], env: { RATE_LIMIT_PER_MINUTE: "100" } });
after(() => Promise.all([service.close(), limited.close()]));

it("answers an unpaid call's 402 and a bad input's 400 without a promise", async () => {
  for (const [path, status] of [
    ["/v1/hash?text=hi", 402],
    ["/v1/hash?algo=nope", 400],
  ] as const) {
    const answer = service.app.request(path);
    assert.ok(answer instanceof Response, `${path} is answered at once`);
    assert.equal(answer.status, status);
  }
});

it("waits where a step has to: a handler's work, the store's count of a rate limit, a body", async () => {
  const waiting = [
    service.app.request("/site/api/reviews"),
    service.app.request("/v1/validate-json", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"json":"{}","schema":{}}',
    }),
    limited.app.request("/v1/hash?text=hi"),
  ];
  waiting.forEach((answer, i) => assert.ok(answer instanceof Promise, `request ${i} waits`));
  assert.deepEqual(
    (await Promise.all(waiting)).map((r) => r.status),
    [200, 402, 402],
  );
});
