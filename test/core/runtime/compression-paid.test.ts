import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import * as v from "valibot";
import { decodePaymentResponseHeader } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { challengeOf, v2Header } from "../../helpers/sign.ts";

const runs = { count: 0 };
const bulky = defineEndpoint({
  name: "bulky",
  method: "GET",
  price: "$0.001",
  summary: "Answers as many lines as asked",
  input: v.object({ lines: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)) }),
  output: v.object({ lines: v.array(v.string()) }),
  example: { input: { lines: 1 }, output: { lines: ["line 0 of the answer"] } },
  handler: ({ input }) => {
    runs.count++;
    return { lines: Array.from({ length: input.lines }, (_, i) => `line ${i} of the answer`) };
  },
});

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let chain: ReturnType<typeof chainReader>;
const url = "http://127.0.0.1:4021/v1/bulky?lines=200";

before(async () => {
  devnet = await startDevnet();
  chain = chainReader(devnet);
  service = await startPaidService(devnet, { plugins: [definePlugin({ family: "bulky", endpoints: [bulky] })] });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

async function paidCall(acceptEncoding?: string) {
  const required = await challengeOf(service.fetch, url);
  const { header } = await v2Header(privateKeyToAccount(devnet.accounts.payer.privateKey), required);
  return service.fetch(url, {
    headers: { "payment-signature": header, ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}) },
  });
}

test("compression: a paid answer goes compressed with its receipt as it is; one run and one transfer per call", async () => {
  const payTo = devnet.accounts.payTo.address;
  const before = await chain.balance(payTo);
  const runsBefore = runs.count;
  const answers = [];
  for (const encoding of ["br", "gzip", undefined]) {
    const res = await paidCall(encoding);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-encoding"), encoding ?? null);
    assert.equal(res.headers.get("vary"), "accept-encoding");
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    assert.equal(receipt.success, true);
    assert.equal(receipt.payer, devnet.accounts.payer.address);
    assert.match(receipt.transaction, /^0x[0-9a-f]{64}$/);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const raw = Buffer.from(await res.arrayBuffer());
    const body = encoding === "br" ? brotliDecompressSync(raw) : encoding === "gzip" ? gunzipSync(raw) : raw;
    const data = JSON.parse(body.toString()).data;
    assert.equal(data.lines.length, 200);
    const names: string[] = [];
    res.headers.forEach((_, name) => name !== "content-encoding" && names.push(name));
    answers.push({ raw: raw.length, names: names.sort() });
  }
  assert.ok(answers[0].raw < answers[2].raw / 4, JSON.stringify(answers.map((a) => a.raw)));
  assert.ok(answers[1].raw < answers[2].raw / 4, JSON.stringify(answers.map((a) => a.raw)));
  assert.deepEqual(answers[0].names, answers[2].names);
  assert.deepEqual(answers[1].names, answers[2].names);
  assert.equal(runs.count - runsBefore, 3);
  assert.equal((await chain.balance(payTo)) - before, 3000n);
});

test("compression: the 402 a client asking for br gets carries the same requirements as one asking for nothing", async () => {
  const plain = await service.fetch(url);
  const asked = await service.fetch(url, { headers: { "accept-encoding": "br, gzip" } });
  assert.equal(asked.status, 402);
  assert.equal(asked.headers.get("payment-required"), plain.headers.get("payment-required"));
});
