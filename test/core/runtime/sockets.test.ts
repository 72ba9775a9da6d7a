import assert from "node:assert/strict";
import net, { type AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import * as v from "valibot";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { listen } from "../../../core/runtime/listen.ts";
import { importFamily } from "../../../core/runtime/load.ts";
import { startTestService } from "../../helpers/service.ts";
import { socketWatch } from "../../helpers/sockets.ts";

// Every connection ends: one whose call timed out, or that was refused, is destroyed a short grace after its
// answer whatever the client does; and a 413 reaches the client before its socket closes.
const deadlineMs = 1_500;
/** The grace listen.ts gives an answer to leave, plus room for a busy machine. */
const graceMs = 2_000 + 3_000;
const maxBodyBytes = 65_536;

const handlerRuns = { count: 0 };
/** A free call whose handler outlives its deadline and ignores the abort. */
const stuck = defineEndpoint({
  name: "stuck",
  method: "GET",
  price: "$0",
  summary: "Never answers on its own",
  input: v.object({}),
  output: v.object({ ok: v.boolean() }),
  example: { input: {}, output: { ok: true } },
  timeoutMs: 300,
  handler: async () => {
    handlerRuns.count++;
    await new Promise(() => {});
    return { ok: true };
  },
});

let service: Awaited<ReturnType<typeof startTestService>>;
let server: Awaited<ReturnType<typeof listen>>;
let port: number;
const { openConnections, serverLetsGo, neverReads } = socketWatch(
  () => server.node!.server!,
  () => port,
);

before(async () => {
  service = await startTestService({
    given: [await importFamily("converters"), definePlugin({ family: "stuck", endpoints: [stuck] })],
    env: { HANDLER_TIMEOUT_MS: String(deadlineMs), MAX_BODY_BYTES: String(maxBodyBytes) },
  });
  server = await listen(service.app, { port: 0, host: "127.0.0.1", handlerTimeoutMs: deadlineMs });
  port = (server.node!.server!.address() as AddressInfo).port;
});

after(async () => {
  await server.close(true);
  await service.close();
});

test("sockets: slow headers, a slow body and a call past its deadline, none of whose clients reads or closes: each socket is gone within the deadline plus a grace", async () => {
  const runs = handlerRuns.count;
  const clients = [
    neverReads("GET /v1/hash?text=hi HTTP/1.1\r\nhost: x\r\n"),
    neverReads(
      "POST /v1/validate-json HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{",
    ),
    neverReads("GET /v1/stuck HTTP/1.1\r\nhost: x\r\n\r\n"),
  ];
  try {
    while ((await openConnections()) < 3 || handlerRuns.count === runs) await new Promise((r) => setTimeout(r, 20));
    const ms = await serverLetsGo(deadlineMs + graceMs + 10_000);
    assert.equal(await openConnections(), 0, `the server still holds ${await openConnections()} sockets`);
    assert.ok(ms < deadlineMs + graceMs, `held ${Math.round(ms)} ms`);
    assert.equal(handlerRuns.count - runs, 1);
  } finally {
    for (const c of clients) c.destroy();
  }
});

test("sockets: a call past its deadline is answered 504, and the connection closes after the answer", async () => {
  const answer = await new Promise<string>((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write("GET /v1/stuck HTTP/1.1\r\nhost: x\r\n\r\n"));
    let text = "";
    socket.setEncoding("utf8").on("data", (d) => (text += d));
    socket.on("error", () => {});
    socket.on("close", () => resolve(text));
  });
  assert.match(answer, /^HTTP\/1.1 504 /);
  assert.match(answer, /connection: close/i);
  assert.equal(JSON.parse(answer.split("\r\n\r\n")[1]).error.code, "timeout");
});

/**
 * A chunked POST of `totalBytes` from a client that reads its answer only once it has sent everything (or the
 * server stopped taking it), as simple clients do; resolves with the answer it could read.
 */
function chunkedFlood(totalBytes: number): Promise<{ status: number; code?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8").on("data", (d) => (text += d));
    socket.pause();
    socket.on("error", () => {});
    socket.on("close", () => {
      const status = Number(/^HTTP\/1.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const body = text.split("\r\n\r\n")[1];
      let code: string | undefined;
      try {
        code = JSON.parse(body).error.code;
      } catch {}
      resolve({ status, code });
    });
    const chunk = Buffer.alloc(16_384, "a");
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
    let sent = 0;
    socket.write(
      'POST /v1/validate-json HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"a":\r\n',
    );
    const pump = () => {
      while (sent < totalBytes && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(frame)) return void socket.once("drain", pump);
      }
      if (!socket.destroyed) socket.end("0\r\n\r\n");
      socket.resume();
    };
    // A server that stops reading: the client gives up sending and reads.
    socket.setTimeout(1000, () => socket.resume());
    pump();
  });
}

test("sockets: 30 chunked floods in parallel over the body limit: 30 refusals reach their clients", async () => {
  const answers = await Promise.all(Array.from({ length: 30 }, () => chunkedFlood(8 * 1024 * 1024)));
  // A box too busy to read 64 KiB within the 1.5 s deadline refuses with 408 instead: an answer too. A lost one is 0.
  const refusals = answers.filter((a) => a.status === 413 && a.code === "body_too_large").length;
  const late = answers.filter((a) => a.status === 408 && a.code === "request_timeout").length;
  assert.equal(refusals + late, 30, JSON.stringify(answers));
  assert.ok(refusals > 0);
  await serverLetsGo(graceMs + 10_000);
  assert.equal(await openConnections(), 0);
});
