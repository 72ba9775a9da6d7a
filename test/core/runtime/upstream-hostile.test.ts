import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import test, { type TestContext } from "node:test";
import { gzipSync } from "node:zlib";
import * as v from "valibot";
import { createEgress, type LookupAll } from "../../../core/runtime/egress.ts";
import { createUpstreams } from "../../../core/runtime/upstream.ts";
import { testUpstreams as upstreams } from "./_upstreams.ts";
import { watchCrashes } from "../../helpers/crashes.ts";

const signal = new AbortController().signal;

/** One upstream server for a test, answering every request with `handler`; `closed` settles when a connection ends. */
async function hostile(t: TestContext, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  let onClose = () => {};
  const closed = new Promise<void>((resolve) => (onClose = resolve));
  const server = createServer((req, res) => {
    req.socket.once("close", onClose);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, closed };
}

function client(
  url: string,
  name = "alternative-me",
  extra: Parameters<typeof createUpstreams>[0] = { table: upstreams },
) {
  const ups = createUpstreams({
    ...extra,
    table: upstreams,
    maxBytes: 4096,
    retries: 0,
    overrides: { [name]: { url } },
  });
  return ups.client(name, { signal });
}

test("upstream: a declared body over the cap, left open, is a 502 and leaves nothing to crash the process", async (t) => {
  const watch = watchCrashes();
  t.after(() => watch.stop());
  const { url, closed } = await hostile(t, (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(50_000_000) });
    res.write("[".repeat(1000));
  });
  await assert.rejects(client(url).json("/fng/"), {
    status: 502,
    message: "alternative-me answered more than 4096 bytes",
  });
  await closed;
  assert.deepEqual(await watch.settled(), []);
});

test("upstream: a gzip body that inflates past the cap is a 502 and leaves nothing to crash the process", async (t) => {
  const watch = watchCrashes();
  t.after(() => watch.stop());
  const bomb = gzipSync(Buffer.alloc(1_000_000, " "));
  const { url } = await hostile(t, (_req, res) =>
    res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(bomb),
  );
  assert.ok(bomb.length < 4096, "the bomb is under the cap as sent");
  await assert.rejects(client(url).json("/fng/"), {
    status: 502,
    message: "alternative-me answered more than 4096 bytes",
  });
  assert.deepEqual(await watch.settled(), []);
});

test("upstream: a body that is not the gzip it claims is a 502", async (t) => {
  const { url } = await hostile(t, (_req, res) =>
    res.writeHead(200, { "content-encoding": "gzip" }).end("\x1f\x8b\x08 forged"),
  );
  await assert.rejects(client(url).json("/fng/"), { status: 502, message: /does not match its Content-Encoding/ });
});

test("upstream: a body cut short of its declared length is a 502", async (t) => {
  const { url } = await hostile(t, (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    res.write('{"data":[');
    res.socket?.destroy();
  });
  await assert.rejects(client(url).json("/fng/"), { status: 502, message: "alternative-me could not be reached" });
});

test("upstream: an answer of another shape is a 502 upstream_invalid naming the problem", async (t) => {
  const { url } = await hostile(t, (_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end('{"data":[{"value":7}]}'),
  );
  const shape = v.object({ data: v.array(v.object({ value: v.string() })) });
  const error = await client(url)
    .json("/fng/", shape)
    .then(
      () => assert.fail("accepted"),
      (e) => e,
    );
  assert.equal(error.status, 502);
  assert.equal(error.code, "upstream_invalid");
  assert.deepEqual(error.details.problems, ["data.0.value: Invalid type: Expected string but received 7"]);
});

test("upstream: a redirect out of the configured origin goes through the egress guard", async (t) => {
  const lookup: LookupAll = async () => [{ address: "169.254.169.254", family: 4 }];
  const egress = createEgress({ maxBytes: 4096, timeoutMs: 1000, lookup });
  const { url } = await hostile(t, (req, res) => {
    if (req.url?.startsWith("/list"))
      return void res.writeHead(302, { location: "http://metadata.test/latest/meta-data/" }).end();
    res.writeHead(404).end();
  });
  const guarded = client(url, "ofac-sdn", { table: upstreams, guard: egress.check });
  await assert.rejects(guarded.text("/list"), {
    status: 502,
    message: "ofac-sdn redirected to a target the egress guard refuses",
  });
  const unguarded = client(url, "ofac-sdn");
  await assert.rejects(unguarded.text("/list"), {
    status: 502,
    message: "ofac-sdn redirected to a target the egress guard refuses",
  });
});
