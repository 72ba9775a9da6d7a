import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import {
  canonicalJson,
  canonicalPath,
  recordExchange,
  type Fixture,
  type ServedCall,
} from "../../core/runtime/recorder.ts";
import { jsonOrText } from "../../core/shared.ts";

export type { Fixture, ServedCall };

export interface FixtureOptions {
  /** Directory of the fixture files named in the list; recordings are written there too. */
  dir?: URL;
  /** Every fixture may answer any number of times; by default each answers once, first match first. */
  reuse?: boolean;
  /** The real upstream's base URL, used in record mode. */
  realUrl?: string;
  /** Proxy unmatched requests to `realUrl` and save them as fixtures; defaults to RECORD=1. */
  record?: boolean;
  /** File-name prefix of recorded fixtures, normally the upstream's name. */
  recordAs?: string;
}

/** What the harness needs from a test: `t` from node:test. */
export interface AfterHost {
  after(fn: () => unknown): void;
}

/**
 * Serves fixtures on 127.0.0.1 for the length of a test. A request no fixture matches is answered 599
 * and fails the test when it ends.
 */
export async function serveFixtures(t: AfterHost, items: (string | Fixture)[], options: FixtureOptions = {}) {
  const fixtures = await Promise.all(
    items.map((item) => (typeof item === "string" ? loadFixture(item, options.dir) : item)),
  );
  const unused = new Set(fixtures);
  const calls: ServedCall[] = [];
  const unmatched: string[] = [];
  const record = (options.record ?? process.env.RECORD === "1") && options.realUrl !== undefined;
  if (record && !options.dir) throw new Error("record mode needs options.dir to write fixtures into");

  function match(call: ServedCall): Fixture | undefined {
    const path = canonicalPath(call.path);
    const found = fixtures.find(
      (f) =>
        (options.reuse || unused.has(f)) &&
        f.request.method.toUpperCase() === call.method &&
        canonicalPath(f.request.path) === path &&
        (f.request.body === undefined || canonicalJson(f.request.body) === canonicalJson(jsonOrText(call.body))),
    );
    if (found) unused.delete(found);
    return found;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const call: ServedCall = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: req.headers,
      body: await readBody(req),
    };
    calls.push(call);
    let fixture = match(call);
    if (!fixture && record) {
      fixture = await recordExchange(call, {
        realUrl: options.realUrl!,
        dir: options.dir!,
        prefix: options.recordAs ?? "recorded",
      });
    }
    if (!fixture) {
      unmatched.push(`${call.method} ${call.path}`);
      res
        .writeHead(599, { "content-type": "application/json" })
        .end(JSON.stringify({ error: `no fixture matches ${call.method} ${call.path}` }));
      return;
    }
    const { status, headers = {}, body, delayMs } = fixture.response;
    if (delayMs) await sleep(delayMs);
    const text = typeof body === "string" ? body : JSON.stringify(body);
    const type = typeof body === "string" ? "text/plain; charset=utf-8" : "application/json";
    res.writeHead(status, { "content-type": type, ...headers }).end(text);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      unmatched.push(`${req.method} ${req.url} (harness error: ${error})`);
      if (!res.headersSent) res.writeHead(599).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }));
  t.after(async () => {
    await close();
    assert.deepEqual(unmatched, [], `requests no fixture matched:\n  ${unmatched.join("\n  ")}`);
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, unmatched, close };
}

/** Reads `<dir>/<name>.json` and checks it is a complete fixture. */
export async function loadFixture(name: string, dir?: URL): Promise<Fixture> {
  if (!dir) throw new Error(`fixture ${name}: pass options.dir to load fixtures by name`);
  const file = new URL(name.endsWith(".json") ? name : `${name}.json`, dir.href.endsWith("/") ? dir : `${dir.href}/`);
  const fixture = JSON.parse(await readFile(file, "utf8")) as Fixture;
  const complete =
    typeof fixture.source === "string" &&
    typeof fixture.request?.method === "string" &&
    typeof fixture.request?.path === "string" &&
    typeof fixture.response?.status === "number" &&
    "body" in fixture.response;
  if (!complete)
    throw new Error(
      `fixture ${file.pathname} needs source, request.method, request.path, response.status and response.body`,
    );
  return fixture;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
