import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf, expect502, expectFree400, expectRefused, query } from "./_web-expect.ts";

const target = await startTarget({
  "/echo": (req, res, body) => {
    const answer = JSON.stringify({
      method: req.method,
      auth: req.headers.authorization ?? null,
      type: req.headers["content-type"] ?? null,
      body,
    });
    res.writeHead(201, { "content-type": "application/json", "x-request-id": "r-1" }).end(answer);
  },
  "/text": { headers: { "content-type": "text/plain" }, body: "x".repeat(50) },
  "/hang-up": "hang-up",
});
const service = await startTestService({ plugins: ["web"], egressLoopbackPort: target.port });
after(() => target.close());

test("api-test: sends method, headers and body, and checks the expected status", async () => {
  const data = dataOf(
    await service.call("api-test", {
      url: target.url("/echo"),
      method: "POST",
      headers: {
        authorization: "Bearer t0ken",
        "content-type": "application/json",
        host: "evil.test",
        "Content-Length": "999",
      },
      body: '{"a":1}',
      expectedStatus: 201,
    }),
  );
  assert.equal(data.status, 201);
  assert.equal(data.pass, true);
  assert.equal(data.json, true);
  assert.deepEqual(JSON.parse(data.bodyExcerpt), {
    method: "POST",
    auth: "Bearer t0ken",
    type: "application/json",
    body: '{"a":1}',
  });
  assert.equal(data.headers["x-request-id"], "r-1");
  assert.equal(data.contentType, "application/json");
  assert.equal(data.truncated, false);
  assert.ok(data.latencyMs > 0);
  const hit = target.hits.at(-1)!;
  assert.equal(hit.headers.host, `127.0.0.1:${target.port}`, "the caller's host header is dropped");
  assert.equal(hit.headers["content-length"], "7");
});

test("api-test: a status other than the expected one fails; the body excerpt is cut", async () => {
  const data = dataOf(
    await service.call("api-test", { url: target.url("/text"), expectedStatus: 204, maxBodyChars: 10 }),
  );
  assert.equal(data.status, 200);
  assert.equal(data.pass, false);
  assert.equal(data.json, false);
  assert.equal(data.bodyExcerpt, "x".repeat(10));
  assert.equal(data.truncated, true);
  assert.equal(data.bytes, 50);
});

test("api-test: headers arrive as a JSON object in the query string", async () => {
  const res = await service.request(
    `/v1/api-test?${query({ url: target.url("/echo"), headers: JSON.stringify({ "x-a": "1" }) })}`,
  );
  assert.equal(res.status, 402, "valid input reaches the payment step");
  await expectFree400(
    await service.request(
      `/v1/api-test?${query({ url: target.url("/echo"), headers: JSON.stringify({ "bad name": "1" }) })}`,
    ),
    "headers.bad name",
  );
});

test("api-test: a target that hangs up is a 502", async () => {
  expect502(await service.call("api-test", { url: target.url("/hang-up") }), "target_error");
});

test("api-test: bad input is a 400 and nothing is sent", async () => {
  const before = target.hits.length;
  await expectFree400(
    await service.request(`/v1/api-test?${query({ url: target.url("/echo"), method: "TRACE" })}`),
    "method",
  );
  await expectFree400(
    await service.request(`/v1/api-test?${query({ url: target.url("/echo"), maxBodyChars: 20_001 })}`),
    "maxBodyChars",
  );
  expectRefused(
    await service.call("api-test", { url: target.url("/echo"), method: "GET", body: "x" }),
    /cannot carry a body/,
  );
  assert.equal(target.hits.length, before);
});

test("api-test: a private target is refused before any request", async () => {
  const before = target.hits.length;
  expectRefused(await service.call("api-test", { url: "http://[fe80::1]/api", method: "DELETE" }), /link-local/);
  expectRefused(await service.call("api-test", { url: "http://0.0.0.0/" }), /unspecified/);
  assert.equal(target.hits.length, before);
});
