import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import test, { type TestContext } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { ServiceError } from "../../../core/runtime/errors.ts";
import { createUpstreams, type UpstreamsOptions } from "../../../core/runtime/upstream.ts";
import { testUpstreams as upstreams } from "./_upstreams.ts";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";

const dir = new URL("./fixtures/", import.meta.url);
const signal = new AbortController().signal;
const bitcoinPath = "/prices/current/coingecko:bitcoin";

function synthetic(status: number, extra: Partial<Fixture["response"]> = {}, path = bitcoinPath): Fixture {
  return {
    source: "synthetic: an upstream in trouble",
    request: { method: "GET", path },
    response: { status, body: { error: "trouble" }, ...extra },
  };
}

/** Points the upstreams these tests use at the fixture server, with the keys given. */
async function setup(
  t: TestContext,
  fixtures: (string | Fixture)[],
  options: Partial<UpstreamsOptions> & { keys?: Record<string, string> } = {},
) {
  const served = await serveFixtures(t, fixtures, { dir });
  const at = (name: string, path = "") => ({ url: `${served.url}${path}`, key: options.keys?.[name] });
  const ups = createUpstreams({
    table: upstreams,
    retryBaseMs: 5,
    ...options,
    overrides: {
      coingecko: at("coingecko", "/api/v3"),
      "defillama-coins": at("defillama-coins"),
      hyperliquid: at("hyperliquid"),
      arxiv: at("arxiv", "/api"),
      openfda: at("openfda"),
      "semantic-scholar": at("semantic-scholar", "/graph/v1"),
      ...options.overrides,
    },
  });
  return { served, ups };
}

test("upstream: GET joins the base URL, path and query, and parses JSON", async (t) => {
  const { served, ups } = await setup(t, ["coingecko.simple-price"]);
  const used: string[] = [];
  const coingecko = ups.client("coingecko", { signal, onCall: (name) => used.push(name) });
  const prices = await coingecko.json("/simple/price", {
    query: { ids: "bitcoin", vs_currencies: "usd", skipped: undefined },
  });
  assert.deepEqual(prices, { bitcoin: { usd: 67187 } });
  assert.equal(served.calls[0].path, "/api/v3/simple/price?ids=bitcoin&vs_currencies=usd");
  assert.equal(served.calls[0].headers.accept, "application/json");
  assert.deepEqual(used, ["coingecko"]);
});

test("upstream: POST sends a JSON body", async (t) => {
  const { served, ups } = await setup(t, ["hyperliquid.meta-and-asset-ctxs"]);
  const [meta, contexts] = await ups
    .client("hyperliquid", { signal })
    .json<[{ universe: { name: string }[] }, { funding: string }[]]>("info", {
      method: "POST",
      body: { type: "metaAndAssetCtxs" },
    });
  assert.equal(meta.universe[0].name, "BTC");
  assert.equal(contexts[0].funding, "0.0000125");
  assert.equal(served.calls[0].headers["content-type"], "application/json");
});

test("upstream: text() returns the body as is", async (t) => {
  const { ups } = await setup(t, ["arxiv.query"]);
  const feed = await ups
    .client("arxiv", { signal })
    .text("/query", { query: { search_query: "all:electron", max_results: 1 } });
  assert.match(feed, /<title>Multi-Electron Production/);
});

test("upstream: a slow upstream is a 504 and is not retried", async (t) => {
  const { served, ups } = await setup(t, [synthetic(200, { delayMs: 3000 })], { timeoutMs: 500 });
  await assert.rejects(ups.client("defillama-coins", { signal }).json(bitcoinPath), {
    status: 504,
    code: "upstream_timeout",
  });
  assert.equal(served.calls.length, 1);
});

test("upstream: a GET is retried after a 503 and then succeeds", async (t) => {
  const { served, ups } = await setup(t, [synthetic(503), "defillama-coins.current-bitcoin"]);
  const answer = await ups
    .client("defillama-coins", { signal })
    .json<{ coins: Record<string, { price: number }> }>(bitcoinPath);
  assert.equal(answer.coins["coingecko:bitcoin"].price, 67187.12);
  assert.equal(served.calls.length, 2);
});

test("upstream: a 429 with a short Retry-After is retried, a long one is not", async (t) => {
  const { served, ups } = await setup(t, [
    synthetic(429, { headers: { "retry-after": "0" } }),
    "defillama-coins.current-bitcoin",
    synthetic(429, { headers: { "retry-after": "120" } }),
  ]);
  const client = ups.client("defillama-coins", { signal });
  await client.json(bitcoinPath);
  await assert.rejects(client.json(bitcoinPath), { status: 502, message: "defillama-coins answered 429" });
  assert.equal(served.calls.length, 3);
});

test("upstream: a GET gives up after its retries with a 502", async (t) => {
  const { served, ups } = await setup(t, [synthetic(500), synthetic(500), synthetic(500)], { retries: 2 });
  await assert.rejects(ups.client("defillama-coins", { signal }).json(bitcoinPath), {
    status: 502,
    code: "upstream_error",
  });
  assert.equal(served.calls.length, 3);
});

test("upstream: a POST is never retried", async (t) => {
  const failing: Fixture = {
    source: "synthetic",
    request: { method: "POST", path: "/info" },
    response: { status: 503, body: {} },
  };
  const { served, ups } = await setup(t, [failing]);
  await assert.rejects(
    ups.client("hyperliquid", { signal }).json("/info", { method: "POST", body: { type: "meta" } }),
    { status: 502 },
  );
  assert.equal(served.calls.length, 1);
});

test("upstream: an unreachable upstream is a 502", async (t) => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const { ups } = await setup(t, [], { overrides: { frankfurter: { url: `http://127.0.0.1:${port}` } } });
  await assert.rejects(ups.client("frankfurter", { signal }).json("/v1/latest"), {
    status: 502,
    message: "frankfurter could not be reached",
  });
});

test("upstream: a declared body over the size cap is a 502", async (t) => {
  const { ups } = await setup(t, [{ ...synthetic(200), response: { status: 200, body: "x".repeat(2048) } }], {
    maxBytes: 1024,
  });
  await assert.rejects(ups.client("defillama-coins", { signal }).text(bitcoinPath), {
    status: 502,
    message: "defillama-coins answered more than 1024 bytes",
  });
});

test("upstream: a streamed body is cut off at the size cap", async (t) => {
  let sent = 0;
  const endless = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const timer = setInterval(() => {
      sent += 512;
      res.write("x".repeat(512));
    }, 1);
    res.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise((resolve) => (endless.closeAllConnections(), endless.close(resolve))));
  const { port } = endless.address() as AddressInfo;
  const { ups } = await setup(t, [], {
    maxBytes: 4096,
    overrides: { frankfurter: { url: `http://127.0.0.1:${port}` } },
  });
  await assert.rejects(ups.client("frankfurter", { signal }).json("/v1/latest"), {
    status: 502,
    message: "frankfurter answered more than 4096 bytes",
  });
  await sleep(20);
  assert.ok(sent < 1_000_000, `the server kept sending after the cap: ${sent} bytes`);
});

test("upstream: a 404 is a 502 unless the caller asks for a 404", async (t) => {
  const { ups } = await setup(t, ["coingecko.unknown-coin", "coingecko.unknown-coin"]);
  const coingecko = ups.client("coingecko", { signal });
  await assert.rejects(coingecko.json("/coins/not-a-coin"), { status: 502, message: "coingecko answered 404" });
  await assert.rejects(coingecko.json("/coins/not-a-coin", { notFoundAs404: true }), {
    status: 404,
    code: "not_found",
  });
});

test("upstream: invalid JSON is a 502", async (t) => {
  const { ups } = await setup(t, [{ ...synthetic(200), response: { status: 200, body: "<html>maintenance</html>" } }]);
  await assert.rejects(ups.client("defillama-coins", { signal }).json(bitcoinPath), {
    status: 502,
    message: "defillama-coins answered invalid JSON",
  });
});

test("upstream: 100 concurrent identical GETs reach the upstream once", async (t) => {
  const fixture = {
    ...synthetic(200),
    response: { status: 200, body: { coins: { "coingecko:bitcoin": { price: 1 } } }, delayMs: 20 },
  };
  const { served, ups } = await setup(t, [fixture]);
  const results = await Promise.all(
    Array.from({ length: 100 }, () => ups.client("defillama-coins", { signal }).json(bitcoinPath)),
  );
  assert.equal(served.calls.length, 1);
  assert.equal(results.length, 100);
  for (const result of results) assert.deepEqual(result, fixture.response.body);
  assert.notEqual(results[0], results[1], "each caller gets its own copy");
});

test("upstream: a caller leaving does not fail the others sharing its request", async (t) => {
  // The answer is held long enough that the first caller surely leaves while the request is out.
  const { served, ups } = await setup(t, [
    { ...synthetic(200), response: { status: 200, body: { ok: true }, delayMs: 1_000 } },
  ]);
  const leaving = new AbortController();
  const first = ups.client("defillama-coins", { signal: leaving.signal }).json(bitcoinPath);
  const second = ups.client("defillama-coins", { signal }).json(bitcoinPath);
  await until(() => served.calls.length === 1);
  leaving.abort(new Error("caller left"));
  await assert.rejects(first, { message: "caller left" });
  assert.deepEqual(await second, { ok: true });
  assert.equal(served.calls.length, 1);
});

/** Waits for the server to have seen what the test needs, checking at each turn of the event loop. */
async function until(seen: () => boolean) {
  while (!seen()) await new Promise((resolve) => setImmediate(resolve));
}

/** A clock the breaker tests move by hand: a cooldown passes when the test says so, however busy the machine. */
function manualClock() {
  let at = 0;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

test("upstream: the breaker opens after 5 failures and answers 503 without calling", async (t) => {
  const failures = Array.from({ length: 5 }, () => synthetic(500));
  const clock = manualClock();
  const { served, ups } = await setup(t, [...failures, "defillama-coins.current-bitcoin"], {
    retries: 0,
    breaker: { threshold: 5, cooldownMs: 200, now: clock.now },
  });
  const client = ups.client("defillama-coins", { signal });
  for (let i = 0; i < 5; i++) await assert.rejects(client.json(bitcoinPath), { status: 502 });
  assert.equal(ups.breakerState("defillama-coins"), "open");
  const refused = await client.json(bitcoinPath).catch((error: unknown) => error);
  assert.ok(refused instanceof ServiceError);
  assert.equal(refused.status, 503);
  assert.equal(refused.headers["retry-after"], "1");
  assert.equal(served.calls.length, 5);
  assert.equal(ups.breakerState("coingecko"), "closed", "other upstreams are unaffected");
  clock.advance(199);
  assert.equal(ups.breakerState("defillama-coins"), "open");
  clock.advance(1);
  assert.equal(ups.breakerState("defillama-coins"), "half-open");
  await client.json(bitcoinPath);
  assert.equal(ups.breakerState("defillama-coins"), "closed");
  assert.equal(served.calls.length, 6);
});

test("upstream: a half-open breaker lets one probe through", async (t) => {
  const probe = { ...synthetic(200, {}, "/probe"), response: { status: 200, body: { ok: true }, delayMs: 50 } };
  const clock = manualClock();
  const { served, ups } = await setup(t, [...Array.from({ length: 5 }, () => synthetic(500)), probe], {
    retries: 0,
    breaker: { threshold: 5, cooldownMs: 50, now: clock.now },
  });
  const client = ups.client("defillama-coins", { signal });
  for (let i = 0; i < 5; i++) await assert.rejects(client.json(bitcoinPath));
  clock.advance(50);
  const [first, second] = await Promise.allSettled([client.json("/probe"), client.json("/other")]);
  assert.equal(first.status, "fulfilled");
  assert.equal(second.status === "rejected" && (second.reason as ServiceError).status, 503);
  assert.deepEqual(served.calls.map((c) => c.path).slice(5), ["/probe"]);
});

test("upstream: a key is sent in the header the table names", async (t) => {
  const { served, ups } = await setup(t, ["semantic-scholar.paper-search"], {
    keys: { "semantic-scholar": "s2-secret" },
  });
  const search = ups.client("semantic-scholar", { signal });
  await search.json("/paper/search", { query: { query: "attention", fields: "title,year", limit: 1 } });
  assert.equal(served.calls[0].headers["x-api-key"], "s2-secret");
  assert.ok(!served.calls[0].path.includes("s2-secret"));
});

test("upstream: a key is sent in the query parameter the table names, and never logged", async (t) => {
  const logged: unknown[] = [];
  const log = {
    info: (o: unknown) => logged.push(o),
    warn: (o: unknown) => logged.push(o),
    error: (o: unknown) => logged.push(o),
    debug: (o: unknown) => logged.push(o),
  };
  const retryOnce: Fixture = {
    source: "synthetic",
    request: { method: "GET", path: "/drug/enforcement.json?limit=1" },
    response: { status: 503, body: {} },
  };
  const { served, ups } = await setup(t, [retryOnce, "openfda.drug-enforcement"], {
    log,
    keys: { openfda: "fda-secret" },
  });
  const recalls = await ups
    .client("openfda", { signal })
    .json<{ meta: { results: { total: number } } }>("/drug/enforcement.json", { query: { limit: 1 } });
  assert.equal(recalls.meta.results.total, 17112);
  assert.equal(served.calls[1].path, "/drug/enforcement.json?limit=1&api_key=fda-secret");
  assert.ok(logged.length > 0, "the retry was logged");
  assert.ok(!JSON.stringify(logged).includes("fda-secret"));
});

test("upstream: an unknown name throws a plain Error", () => {
  const ups = createUpstreams({ table: upstreams });
  assert.throws(
    () => ups.client("no-such-upstream", { signal }),
    (error: unknown) => error instanceof Error && !(error instanceof ServiceError),
  );
  assert.throws(() => ups.isConfigured("no-such-upstream"), /Unknown upstream "no-such-upstream"/);
});

test("upstream: isConfigured is false only when a required key is missing", () => {
  const bare = createUpstreams({ table: upstreams });
  assert.equal(bare.isConfigured("nass"), false);
  assert.equal(bare.isConfigured("coingecko"), true, "an optional key may be missing");
  assert.equal(bare.isConfigured("frankfurter"), true, "keyless");
  const keyed = createUpstreams({ table: upstreams, overrides: { nass: { key: "nass-key" } } });
  assert.equal(keyed.isConfigured("nass"), true);
});

test("fixtures: a request no fixture matches is answered 599 and fails the test", async () => {
  const hooks: (() => unknown)[] = [];
  const served = await serveFixtures({ after: (fn) => hooks.push(fn) }, ["coingecko.simple-price"], { dir });
  const res = await fetch(`${served.url}/api/v3/simple/price?ids=ethereum&vs_currencies=usd`);
  assert.equal(res.status, 599);
  await assert.rejects(async () => {
    for (const hook of hooks) await hook();
  }, /GET \/api\/v3\/simple\/price\?ids=ethereum&vs_currencies=usd/);
});

test("fixtures: record mode proxies to the real upstream and saves the exchange without the key", async (t) => {
  const real = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json", "set-cookie": "session=abc" });
    res.end(
      JSON.stringify({ meta: { results: { total: 3 } }, results: [], sawKey: req.url?.includes("api_key=fda-secret") }),
    );
  });
  await new Promise<void>((resolve) => real.listen(0, "127.0.0.1", resolve));
  const recordings = await mkdtemp(join(tmpdir(), "fixtures-"));
  t.after(async () => {
    await new Promise((resolve) => real.close(resolve));
    await rm(recordings, { recursive: true, force: true });
  });
  const recordDir = pathToFileURL(`${recordings}/`);
  const realUrl = `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
  const recorder = await serveFixtures(t, [], { dir: recordDir, realUrl, record: true, recordAs: "openfda" });
  const live = createUpstreams({ table: upstreams, overrides: { openfda: { url: recorder.url, key: "fda-secret" } } });
  const answer = await live
    .client("openfda", { signal })
    .json<{ sawKey: boolean }>("/drug/enforcement.json", { query: { limit: 3 } });
  assert.equal(answer.sawKey, true, "the real upstream got the key");

  const [file] = await readdir(recordings);
  assert.equal(file, "openfda.get-drug-enforcement-json-limit-3.json");
  const saved = await readFile(join(recordings, file), "utf8");
  assert.ok(!saved.includes("fda-secret") && !saved.includes("session=abc"));
  assert.equal(JSON.parse(saved).request.path, "/drug/enforcement.json?limit=3");
  assert.match(
    JSON.parse(saved).source,
    /^recorded from http:\/\/127\.0\.0\.1:\d+\/drug\/enforcement\.json\?limit=3 on \d{4}-\d{2}-\d{2}$/,
  );

  const replay = await serveFixtures(t, [file], { dir: recordDir });
  const again = createUpstreams({ table: upstreams, overrides: { openfda: { url: replay.url, key: "another-key" } } });
  assert.deepEqual(
    await again.client("openfda", { signal }).json("/drug/enforcement.json", { query: { limit: 3 } }),
    answer,
  );
});

test("upstream: a gzip-encoded answer is decompressed before parsing", async (t) => {
  const { gzipSync } = await import("node:zlib");
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
    res.end(gzipSync(JSON.stringify({ items: [{ title: "compressed" }] })));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => server.close());
  const port = (server.address() as { port: number }).port;
  const ups = createUpstreams({
    table: upstreams,
    overrides: { "defillama-coins": { url: `http://127.0.0.1:${port}` } },
    retries: 0,
  });
  const answer = await ups.client("defillama-coins", { signal }).json<{ items: { title: string }[] }>("/anything");
  assert.equal(answer.items[0].title, "compressed");
});
