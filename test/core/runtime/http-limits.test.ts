import assert from "node:assert/strict";
import { request } from "node:http";
import net, { type AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { listen } from "../../../core/runtime/listen.ts";
import { startTestService } from "../../helpers/service.ts";

// The HTTP layer in front of the call path, over a real socket: bodies bounded as they arrive, slow senders
// cut at the handler's deadline, and what Node refuses before the app sees a request answered in JSON.
// That the sockets of clients who never read are let go is sockets.test.ts's.
const deadlineMs = 1_500;
const maxBodyBytes = 1_048_576;
let service: Awaited<ReturnType<typeof startTestService>>;
let server: Awaited<ReturnType<typeof listen>>;
let port: number;

before(async () => {
  service = await startTestService({
    plugins: ["converters"],
    env: { HANDLER_TIMEOUT_MS: String(deadlineMs), MAX_BODY_BYTES: String(maxBodyBytes) },
  });
  server = await listen(service.app, { port: 0, host: "127.0.0.1", handlerTimeoutMs: deadlineMs });
  port = (server.node!.server!.address() as AddressInfo).port;
});

after(async () => {
  await server.close(true);
  await service.close();
});

interface Streamed {
  status: number;
  body: string;
  sentBytes: number;
  rssGrowth: number;
}

/** POSTs `totalBytes` chunked, one reused 64 KiB buffer at a time, until the server answers; RSS is sampled at every chunk. */
function streamPost(path: string, totalBytes: number): Promise<Streamed> {
  const chunk = Buffer.alloc(65_536, "a");
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let sentBytes = 0;
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port,
      path,
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
    });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res
        .setEncoding("utf8")
        .on("data", (d) => (body += d))
        .on("end", () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body, sentBytes, rssGrowth: peak - baseline });
        });
    });
    req.on("error", (error) => {
      if (!answered)
        reject(new Error(`the request failed before any answer, after ${sentBytes} bytes: ${error.message}`));
    });
    const pump = () => {
      while (!answered && sentBytes < totalBytes) {
        peak = Math.max(peak, process.memoryUsage().rss);
        sentBytes += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    req.write('{"calls":"');
    pump();
  });
}

/** Sends raw bytes and reads until the server closes the connection. */
function raw(text: string): Promise<{ answer: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let answer = "";
    socket.setEncoding("utf8").on("data", (d) => (answer += d));
    socket.on("error", () => {});
    socket.on("close", () => resolve({ answer, ms: performance.now() - started }));
  });
}

function jsonError(answer: string, status: number, code: string) {
  const [head, body] = answer.split("\r\n\r\n");
  assert.match(head, new RegExp(`^HTTP/1.1 ${status} `));
  assert.match(head, /content-type: application\/json/i);
  assert.equal(JSON.parse(body).error.code, code);
}

test("http: a 200 MiB chunked POST is refused with a 413 at the limit, holding memory far below the body's size", async (t) => {
  const total = 200 * 1024 * 1024;
  const answer = await streamPost("/v1/batch", total);
  t.diagnostic(
    `answered ${answer.status} after ${answer.sentBytes} bytes sent; RSS grew ${(answer.rssGrowth / 1048576).toFixed(1)} MiB`,
  );
  assert.equal(answer.status, 413);
  assert.equal(JSON.parse(answer.body).error.code, "body_too_large");
  assert.ok(answer.sentBytes < total / 4, `the server read on to ${answer.sentBytes} bytes before answering`);
  assert.ok(
    answer.rssGrowth < 64 * 1024 * 1024,
    `RSS grew ${Math.round(answer.rssGrowth / 1048576)} MiB for a 200 MiB body`,
  );
});

test("http: a body declared over the limit is refused before it is read", async () => {
  const { answer } = await raw(
    `POST /v1/batch HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${maxBodyBytes + 1}\r\n\r\n{`,
  );
  jsonError(answer, 413, "body_too_large");
});

test("http: a body within the limit still reaches the call path", async () => {
  const res = await fetch(`http://127.0.0.1:${port}/v1/validate-json`, {
    method: "POST",
    body: "{}",
    headers: { "content-type": "application/json" },
  });
  assert.equal(res.status, 400, "the empty input reached validation");
  assert.equal((await res.json()).error.code, "invalid_input");
});

test("http: headers over 256 KiB are a JSON 431", async () => {
  const { answer } = await raw(`GET /v1/hash?text=${"a".repeat(300_000)} HTTP/1.1\r\nhost: x\r\n\r\n`);
  jsonError(answer, 431, "headers_too_large");
});

test("http: a malformed request line is a JSON 400", async () => {
  jsonError((await raw("GARBAGE\r\n\r\n")).answer, 400, "bad_request");
  jsonError((await raw("GET ftp://example.com/ HTTP/1.1\r\nhost: x\r\n\r\n")).answer, 400, "bad_request");
});

test("http: headers that never finish are cut with a JSON 408 near the handler deadline", async () => {
  const { answer, ms } = await raw("GET /v1/hash?text=hi HTTP/1.1\r\nhost: x\r\n");
  jsonError(answer, 408, "request_timeout");
  assert.ok(ms < deadlineMs + 10_000, `the connection was held ${Math.round(ms)} ms`);
});

test("http: a body that never finishes is cut with a JSON 408 near the handler deadline", async () => {
  const { answer, ms } = await raw(
    "POST /v1/validate-json HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{",
  );
  jsonError(answer, 408, "request_timeout");
  assert.ok(ms < deadlineMs + 10_000, `the connection was held ${Math.round(ms)} ms`);
});
