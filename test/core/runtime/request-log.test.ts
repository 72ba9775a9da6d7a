import { test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import pino from "pino";
import { settlingGate, startTestService, testPayer } from "../../helpers/service.ts";

interface Line {
  msg: string;
  reqId?: string;
  method?: string;
  path?: string;
  endpoint?: string;
  status?: number;
  ms?: number;
  price?: string;
  payer?: string;
}

async function logged() {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  const service = await startTestService({
    plugins: ["converters"],
    payments: settlingGate(),
    log: pino({ level: "info" }, sink),
  });
  const requests = () => lines.filter((l) => l.msg === "request");
  return { service, requests };
}

test("every request writes one line with its route, status, latency and request id", async () => {
  const { service, requests } = await logged();
  try {
    const challenged = await service.request("/v1/hash?text=hi", { headers: { "x-request-id": "agent-run-7" } });
    const invalid = await service.request("/v1/hash?algo=nope");
    const health = await service.request("/health");
    const missing = await service.request("/v1/nope");
    assert.deepEqual([challenged.status, invalid.status, health.status, missing.status], [402, 400, 200, 404]);
    await new Promise((resolve) => setImmediate(resolve));

    const lines = requests();
    assert.equal(lines.length, 4);
    assert.deepEqual(
      lines.map((l) => [l.method, l.path, l.status]),
      [
        ["GET", "/v1/hash", 402],
        ["GET", "/v1/hash", 400],
        ["GET", "/health", 200],
        ["GET", "/v1/nope", 404],
      ],
    );
    assert.equal(lines[0].reqId, "agent-run-7");
    assert.equal(lines[1].reqId, invalid.headers.get("x-request-id"));
    assert.equal(lines[0].endpoint, "hash");
    for (const line of lines) assert.ok(typeof line.ms === "number" && line.ms >= 0, `latency of ${line.path}`);
    assert.equal(lines[0].price, undefined, "a 402 charges nothing");
  } finally {
    await service.close();
  }
});

test("a paid call's line names its price and payer", async () => {
  const { service, requests } = await logged();
  try {
    const res = await service.request("/v1/hash?text=hi", { headers: { "x-credit-code": "any" } });
    assert.equal(res.status, 200);
    await new Promise((resolve) => setImmediate(resolve));
    const [line] = requests();
    assert.equal(line.status, 200);
    assert.equal(line.price, "1000");
    assert.equal(line.payer, testPayer);
  } finally {
    await service.close();
  }
});

test("a request that fails before the call path (a body that is not JSON) is logged once, with its status", async () => {
  const { service, requests } = await logged();
  try {
    const res = await service.request("/v1/validate-json", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.code, "invalid_json");
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      requests().map((l) => [l.path, l.status]),
      [["/v1/validate-json", 400]],
    );
  } finally {
    await service.close();
  }
});
