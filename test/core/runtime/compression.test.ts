import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { startTestService, testPaymentOption } from "../../helpers/service.ts";
import { createClosedGate } from "../../../core/payment/gate.ts";
import { x402Offers } from "../../../core/x402/offers.ts";
import type { PaymentOption } from "../../../core/x402/requirements.ts";
import { responseHeaders } from "../../../core/runtime/app.ts";
import { listen } from "../../../core/runtime/listen.ts";
import { preferredEncoding } from "../../../core/runtime/compression.ts";

// The whole plugin set: the documents at their real size.
const service = await startTestService();
let server: Awaited<ReturnType<typeof listen>>;
let port: number;
before(async () => {
  server = await listen(service.app, { port: 0, host: "127.0.0.1", handlerTimeoutMs: 60_000 });
  port = (server.node!.server!.address() as AddressInfo).port;
});
after(() => server.close(true));

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as it came over the socket, still encoded. */
  body: Buffer;
}

/** A GET over a real socket, its body's bytes counted as they arrive (node:http decodes nothing). */
function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

const decoded = (raw: Raw) => {
  const encoding = raw.headers["content-encoding"];
  return encoding === "br" ? brotliDecompressSync(raw.body) : encoding === "gzip" ? gunzipSync(raw.body) : raw.body;
};

const asked = { "accept-encoding": "br, gzip" };

for (const [path, limit] of [
  ["/openapi.json", 250_000],
  ["/", 70_000],
] as const) {
  test(`compression: ${path} takes at most ${limit / 1000} KB on the wire with Accept-Encoding: br, gzip`, async (t) => {
    const plain = await get(path);
    const compressed = await get(path, asked);
    t.diagnostic(`${path}: ${plain.body.length} bytes as they are, ${compressed.body.length} with br`);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.ok(plain.body.length > limit, "the document is big enough for the limit to mean something");
    assert.equal(compressed.headers["content-encoding"], "br");
    assert.equal(Number(compressed.headers["content-length"]), compressed.body.length);
    assert.ok(compressed.body.length <= limit, `${compressed.body.length} bytes`);
    assert.deepEqual(decoded(compressed), plain.body);
    const gzip = await get(path, { "accept-encoding": "gzip" });
    assert.equal(gzip.headers["content-encoding"], "gzip");
    assert.deepEqual(decoded(gzip), plain.body);
  });
}

test("compression: the documents and pages answer 304 to a repeated fetch with their ETag, in any encoding", async () => {
  for (const path of ["/openapi.json", "/", "/llms.txt", "/x402-manifest", "/.well-known/x402", "/docs"]) {
    const first = await get(path, asked);
    const etag = first.headers.etag as string;
    assert.match(etag, /^"[\w-]+-br"$/, path);
    const again = await get(path, { ...asked, "if-none-match": etag });
    assert.equal(again.status, 304, path);
    assert.equal(again.body.length, 0, path);
    assert.equal(again.headers.etag, etag, path);
    const plain = await get(path);
    assert.notEqual(plain.headers.etag, etag, `${path}: each encoding has its own tag`);
    assert.equal((await get(path, { "if-none-match": `W/${etag}` })).status, 304, `${path}: the same body, weakly`);
    assert.equal((await get(path, { ...asked, "if-none-match": '"something-else"' })).status, 200, path);
  }
});

test("compression: the home page, built per request, keeps one ETag while it does not change", async () => {
  const a = await get("/", asked);
  const b = await get("/", asked);
  assert.equal(a.headers.etag, b.headers.etag);
  assert.deepEqual(a.body, b.body);
});

test("compression: every big answer says Vary: Accept-Encoding; a client that asks for none gets identity", async () => {
  for (const path of ["/openapi.json", "/", "/llms.txt", "/docs/assets/swagger-ui.css"]) {
    for (const headers of [{}, asked, { "accept-encoding": "identity" }, { "accept-encoding": "br;q=0, gzip;q=0" }]) {
      const res = await get(path, headers);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.vary, "accept-encoding", `${path} ${JSON.stringify(headers)}`);
      const wanted = "accept-encoding" in headers && headers["accept-encoding"] === "br, gzip" ? "br" : undefined;
      assert.equal(res.headers["content-encoding"], wanted, `${path} ${JSON.stringify(headers)}`);
    }
  }
});

test("compression: a small answer (a 402 challenge, a 404) goes as it is, with no Vary", async () => {
  for (const path of ["/v1/hash?text=hi", "/v1/nope"]) {
    const res = await get(path, asked);
    assert.ok(res.body.length < 1024, path);
    assert.equal(res.headers["content-encoding"], undefined, path);
    assert.equal(res.headers.vary, undefined, path);
  }
});

test("compression: a 402 challenge over 1 KB is compressed once, its payment headers as they are without compression", async () => {
  const options = ["eip155:84532", "eip155:8453", "eip155:137", "eip155:42161", "eip155:10"].map((network) => ({
    ...testPaymentOption,
    network,
  }));
  const many = await startTestService({
    plugins: ["converters"],
    payments: createClosedGate(x402Offers(options as PaymentOption[], "http://127.0.0.1:4021")),
  });
  const path = "/v1/hash?text=hi";
  const plain = await many.request(path);
  assert.equal(plain.status, 402);
  const plainBody = Buffer.from(await plain.arrayBuffer());
  assert.ok(plainBody.length >= 1024, `${plainBody.length} bytes`);
  const bodies: Buffer[] = [];
  for (const encoding of ["br", "br", "gzip"]) {
    const res = await many.request(path, { headers: { "accept-encoding": encoding } });
    assert.equal(res.status, 402);
    assert.equal(res.headers.get("content-encoding"), encoding);
    for (const name of responseHeaders.filter((h) => h !== "x-request-id"))
      assert.equal(res.headers.get(name), plain.headers.get(name), name);
    const body = Buffer.from(await res.arrayBuffer());
    bodies.push(body);
    assert.deepEqual(encoding === "br" ? brotliDecompressSync(body) : gunzipSync(body), plainBody);
  }
  assert.deepEqual(bodies[0], bodies[1]);
});

test("compression: a 400 over 1 KB goes compressed and says the same as its identity twin", async () => {
  const path = `/v1/hash?${Array.from({ length: 60 }, (_, i) => `unknown${i}=x`).join("&")}`;
  const plain = await get(path);
  assert.equal(plain.status, 400);
  assert.ok(plain.body.length >= 1024, `${plain.body.length} bytes`);
  for (const encoding of ["br", "gzip"]) {
    const res = await get(path, { "accept-encoding": encoding });
    assert.equal(res.status, 400);
    assert.equal(res.headers["content-encoding"], encoding);
    assert.equal(res.headers.vary, "accept-encoding");
    assert.equal(Number(res.headers["content-length"]), res.body.length);
    assert.ok(res.body.length < plain.body.length);
    assert.deepEqual(JSON.parse(decoded(res).toString()).error.code, JSON.parse(plain.body.toString()).error.code);
  }
});

test("compression: Accept-Encoding is read with its q-values", () => {
  const cases: [string | null, string | undefined][] = [
    [null, undefined],
    ["", undefined],
    ["identity", undefined],
    ["gzip", "gzip"],
    ["br", "br"],
    ["gzip, br", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0", undefined],
    ["*", "br"],
    ["*;q=0", undefined],
    ["gzip, *;q=0", "gzip"],
    ["deflate", undefined],
    ["BR;Q=1, GZIP", "br"],
  ];
  for (const [header, wanted] of cases) assert.equal(preferredEncoding(header), wanted, String(header));
});
