import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import { createEgress, isPublicAddress, type LookupAll } from "../../../core/runtime/egress.ts";
import { ServiceError } from "../../../core/runtime/errors.ts";
import { watchCrashes } from "../../helpers/crashes.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const hits: string[] = [];
  server.on("request", (req: IncomingMessage) => hits.push(req.url ?? ""));
  const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, hits, close };
}

/** A resolver for names that only exist in these tests; `rebind.test` answers differently the second time. */
function fakeDns() {
  const asked: string[] = [];
  const answers: Record<string, string[][]> = {
    "internal.test": [["10.0.0.1"]],
    "mixed.test": [["93.184.215.14", "10.0.0.1"]],
    "v6-private.test": [["fd00::1"]],
    "metadata.test": [["169.254.169.254"]],
    "loopback.test": [["127.0.0.1"]],
    "rebind.test": [["127.0.0.1"], ["10.0.0.1"]],
  };
  const lookup: LookupAll = async (host) => {
    const seen = asked.filter((name) => name === host).length;
    asked.push(host);
    const rounds = answers[host];
    if (!rounds) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return rounds[Math.min(seen, rounds.length - 1)].map((address) => ({
      address,
      family: address.includes(":") ? 6 : 4,
    }));
  };
  return { lookup, asked };
}

const maxBytes = 1024;
/** Under the cap as sent (a few hundred bytes), far over it once inflated. */
const bomb = gzipSync(Buffer.alloc(1_000_000));
let closeHuge = () => {};
const hugeClosed = new Promise<void>((resolve) => (closeHuge = resolve));
let target: Awaited<ReturnType<typeof listen>>;
let elsewhere: Awaited<ReturnType<typeof listen>>;
let origin: string;

before(async () => {
  elsewhere = await listen((_req, res) => res.end("should never be reached"));
  target = await listen((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const hops = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (hops) {
      const left = Number(hops[1]) - 1;
      return void res.writeHead(302, { location: left > 0 ? `/redirect/${left}` : "/ok" }).end();
    }
    switch (url.pathname) {
      case "/ok":
        return void res.end("hello");
      case "/host":
        return void res.end(req.headers.host);
      case "/method":
        return void res.end(req.method);
      case "/see-other":
        return void res.writeHead(303, { location: "/method" }).end();
      case "/to-private":
        return void res.writeHead(302, { location: "http://10.0.0.1/admin" }).end();
      case "/to-metadata-name":
        return void res.writeHead(301, { location: "http://metadata.test/latest/meta-data/" }).end();
      case "/to-other-port":
        return void res.writeHead(307, { location: `http://127.0.0.1:${elsewhere.port}/` }).end();
      case "/big":
        res.write("x".repeat(maxBytes));
        return void res.end("x");
      case "/big-declared":
        return void res.writeHead(200, { "content-length": String(maxBytes * 10) }).end("x".repeat(maxBytes * 10));
      case "/huge-declared-open":
        // Declares far more than the cap and sends a little, never ending: the guard must cancel it.
        req.socket.once("close", () => closeHuge());
        res.writeHead(200, { "content-length": String(50_000_000) });
        return void res.write(Buffer.alloc(65_536));
      case "/gzip-bomb":
        return void res.writeHead(200, { "content-encoding": "gzip", "content-type": "text/html" }).end(bomb);
      case "/gzip-forged":
        return void res
          .writeHead(200, { "content-encoding": "gzip", "content-type": "text/html" })
          .end(Buffer.from("\x1f\x8b not gzip at all"));
      case "/gzip-hello":
        return void res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync("hello"));
      case "/slow":
        res.write("a little, ");
        return void setTimeout(() => res.end("then the rest"), 30_000).unref();
      default:
        res.writeHead(404).end();
    }
  });
  origin = `http://127.0.0.1:${target.port}`;
});

after(async () => {
  await target.close();
  await elsewhere.close();
});

function egressFor(lookup?: LookupAll) {
  return createEgress({ allowLoopbackPort: target.port, maxBytes, timeoutMs: 3_000, lookup });
}

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => assert.fail("the egress guard let it through"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${error}`);
  return error;
}

describe("egress: refuses", () => {
  const cases: [name: string, url: () => string, reason: RegExp][] = [
    ["loopback 127.0.0.1", () => "http://127.0.0.1/", /127\.0\.0\.1 is loopback/],
    ["decimal 2130706433", () => "http://2130706433/", /127\.0\.0\.1 is loopback/],
    ["octal 0177.0.0.1", () => "http://0177.0.0.1/", /127\.0\.0\.1 is loopback/],
    ["hex octet 0x7f.0.0.1", () => "http://0x7f.0.0.1/", /127\.0\.0\.1 is loopback/],
    ["hex 0x7f000001", () => "http://0x7f000001/", /127\.0\.0\.1 is loopback/],
    ["short form 127.1", () => "http://127.1/", /127\.0\.0\.1 is loopback/],
    ["unspecified 0.0.0.0", () => "http://0.0.0.0/", /0\.0\.0\.0 is unspecified/],
    ["unspecified [::]", () => "http://[::]/", /:: is unspecified/],
    ["IPv6 loopback [::1]", () => "http://[::1]/", /::1 is loopback/],
    ["IPv4-mapped [::ffff:127.0.0.1]", () => "http://[::ffff:127.0.0.1]/", /IPv4-mapped \(127\.0\.0\.1\)/],
    ["IPv4-mapped hex [::ffff:7f00:1]", () => "http://[::ffff:7f00:1]/", /IPv4-mapped \(127\.0\.0\.1\)/],
    ["IPv4-compatible [::7f00:1]", () => "http://[::7f00:1]/", /IPv4-compatible \(127\.0\.0\.1\)/],
    ["6to4 [2002:a00:1::]", () => "http://[2002:a00:1::]/", /6to4 \(10\.0\.0\.1\)/],
    ["NAT64 [64:ff9b::a9fe:a9fe]", () => "http://[64:ff9b::a9fe:a9fe]/", /NAT64 \(169\.254\.169\.254\)/],
    [
      "Teredo [2001:0:4136:e378:8000:63bf:f5ff:fffe]",
      () => "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/",
      /Teredo \(10\.0\.0\.1\)/,
    ],
    [
      "cloud metadata 169.254.169.254",
      () => "http://169.254.169.254/latest/meta-data/",
      /link-local \(cloud metadata\)/,
    ],
    ["IPv6 link-local [fe80::1]", () => "http://[fe80::1]/", /is link-local/],
    ["unique-local [fd00::1]", () => "http://[fd00::1]/", /fd00::1 is unique-local/],
    ["private 10.0.0.1", () => "http://10.0.0.1/", /10\.0\.0\.1 is private/],
    ["private 192.168.1.1", () => "http://192.168.1.1/", /192\.168\.1\.1 is private/],
    ["private 172.16.0.1", () => "http://172.16.0.1/", /172\.16\.0\.1 is private/],
    ["carrier-grade NAT 100.64.0.1", () => "http://100.64.0.1/", /100\.64\.0\.1 is carrier-grade NAT/],
    ["multicast 224.0.0.1", () => "http://224.0.0.1/", /is multicast/],
    ["broadcast 255.255.255.255", () => "http://255.255.255.255/", /is broadcast/],
    ["reserved 240.0.0.1", () => "http://240.0.0.1/", /is reserved/],
    ["file: scheme", () => "file:///etc/passwd", /scheme file: is not allowed/],
    ["ftp: scheme", () => "ftp://example.com/", /scheme ftp: is not allowed/],
    ["a port other than 80 and 443", () => "http://example.com:8080/", /port 8080 is not allowed/],
    ["credentials in the URL", () => "http://user:pass@example.com/", /credentials/],
    ["a name resolving to a private address", () => "http://internal.test/", /10\.0\.0\.1 is private/],
    ["a name with one private address among public ones", () => "http://mixed.test/", /10\.0\.0\.1 is private/],
    ["a name resolving to a private IPv6 address", () => "https://v6-private.test/", /fd00::1 is unique-local/],
    ["a name resolving to the metadata address", () => "http://metadata.test/", /cloud metadata/],
    ["a loopback name on port 80", () => "http://loopback.test/", /127\.0\.0\.1 is loopback/],
    [
      "loopback on a port other than the test allowance",
      () => `http://127.0.0.1:${elsewhere.port}/`,
      /port \d+ is not allowed/,
    ],
    ["IPv6 loopback on the test allowance port", () => `http://[::1]:${target.port}/ok`, /::1 is loopback/],
    ["a private address on the test allowance port", () => `http://10.0.0.1:${target.port}/`, /10\.0\.0\.1 is private/],
    [
      "a public address on the test allowance port",
      () => `http://93.184.215.14:${target.port}/`,
      /port \d+ is not allowed/,
    ],
    ["a redirect to a private address", () => `${origin}/to-private`, /10\.0\.0\.1 is private/],
    ["a redirect to a name resolving to the metadata address", () => `${origin}/to-metadata-name`, /cloud metadata/],
    ["a redirect to another loopback port", () => `${origin}/to-other-port`, /port \d+ is not allowed/],
  ];
  for (const [name, url, reason] of cases) {
    test(name, async () => {
      const error = await refusal(egressFor(fakeDns().lookup).fetch(url()));
      assert.equal(error.status, 400);
      assert.match(error.message, reason);
    });
  }

  test("localhost through the system resolver", async () => {
    const error = await refusal(egressFor().fetch("http://localhost/"));
    assert.equal(error.status, 400);
    assert.match(error.message, /is loopback/);
  });

  test("more than 5 redirects", async () => {
    const error = await refusal(egressFor().fetch(`${origin}/redirect/6`));
    assert.equal(error.status, 502);
    assert.equal(error.code, "target_error");
    assert.match(error.message, /more than 5 redirects/);
  });

  test("a streamed body over the size cap", async () => {
    const error = await refusal(egressFor().fetch(`${origin}/big`));
    assert.equal(error.status, 502);
    assert.match(error.message, /more than 1024 bytes/);
  });

  test("a declared body over the size cap", async () => {
    const error = await refusal(egressFor().fetch(`${origin}/big-declared`));
    assert.equal(error.status, 502);
    assert.match(error.message, /more than 1024 bytes/);
  });

  test("a body declared far over the cap and left open: cancelled, and nothing is left to crash the process", async () => {
    const watch = watchCrashes();
    try {
      const error = await refusal(egressFor().fetch(`${origin}/huge-declared-open`));
      assert.equal(error.status, 502);
      assert.match(error.message, /more than 1024 bytes/);
      await hugeClosed;
      assert.deepEqual(await watch.settled(), []);
    } finally {
      watch.stop();
    }
  });

  test("a gzip body that inflates past the cap", async () => {
    assert.ok(bomb.length < maxBytes, "the bomb is under the cap as sent");
    const watch = watchCrashes();
    try {
      const error = await refusal(egressFor().fetch(`${origin}/gzip-bomb`));
      assert.equal(error.status, 502);
      assert.match(error.message, /more than 1024 bytes/);
      assert.deepEqual(await watch.settled(), []);
    } finally {
      watch.stop();
    }
  });

  test("a body that is not the gzip it claims", async () => {
    const error = await refusal(egressFor().fetch(`${origin}/gzip-forged`));
    assert.equal(error.status, 502);
    assert.match(error.message, /does not decode/);
  });

  test("a body slower than the time cap", async () => {
    const error = await refusal(egressFor().fetch(`${origin}/slow`));
    assert.equal(error.status, 504);
    assert.equal(error.code, "target_timeout");
  });

  test("nothing was sent to the other loopback port", () => {
    assert.deepEqual(elsewhere.hits, []);
  });
});

describe("egress: lets through", () => {
  test("the test allowance port on 127.0.0.1", async () => {
    const answer = await egressFor().fetch(`${origin}/ok`);
    assert.equal(answer.status, 200);
    assert.equal(answer.text(), "hello");
    assert.equal(answer.url, `${origin}/ok`);
    assert.equal(answer.address, "127.0.0.1");
    assert.deepEqual(answer.redirects, []);
  });

  test("redirects within allowed targets, listed in order", async () => {
    const answer = await egressFor().fetch(`${origin}/redirect/3`);
    assert.equal(answer.text(), "hello");
    assert.deepEqual(answer.redirects, [`${origin}/redirect/2`, `${origin}/redirect/1`, `${origin}/ok`]);
    assert.equal(answer.url, `${origin}/ok`);
  });

  test("a gzip body, decoded; raw when the handler asked for an encoding itself", async () => {
    assert.equal((await egressFor().fetch(`${origin}/gzip-hello`)).text(), "hello");
    const raw = await egressFor().fetch(`${origin}/gzip-hello`, { headers: { "accept-encoding": "gzip" } });
    assert.deepEqual(raw.body, gzipSync("hello"));
  });

  test("exactly 5 redirects", async () => {
    const answer = await egressFor().fetch(`${origin}/redirect/5`);
    assert.equal(answer.redirects.length, 5);
  });

  test("a POST answered 303 is followed with a GET", async () => {
    const answer = await egressFor().fetch(`${origin}/see-other`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    assert.equal(answer.text(), "GET");
  });

  test("a rebinding name connects to the address that was checked", async () => {
    const dns = fakeDns();
    const egress = egressFor(dns.lookup);
    const answer = await egress.fetch(`http://rebind.test:${target.port}/host`);
    assert.equal(answer.address, "127.0.0.1");
    assert.equal(answer.text(), `rebind.test:${target.port}`, "the Host header keeps the name");
    assert.deepEqual(dns.asked, ["rebind.test"], "the connection did not resolve the name again");
    const second = await refusal(egress.fetch(`http://rebind.test:${target.port}/host`));
    assert.match(second.message, /10\.0\.0\.1 is private/, "the next fetch checks the new answer");
  });

  test("check() names the address a connection must use", async () => {
    assert.deepEqual(await egressFor(fakeDns().lookup).check(`http://loopback.test:${target.port}/x`), {
      url: `http://loopback.test:${target.port}/x`,
      address: "127.0.0.1",
    });
  });
});

test("isPublicAddress", () => {
  for (const ip of ["8.8.8.8", "93.184.215.14", "2606:4700:4700::1111"]) assert.equal(isPublicAddress(ip), true, ip);
  for (const ip of [
    "127.0.0.1",
    "10.1.2.3",
    "::ffff:8.8.8.8",
    "fd00:ec2::254",
    "100.100.100.200",
    "192.0.2.1",
    "not-an-ip",
  ]) {
    assert.equal(isPublicAddress(ip), false, ip);
  }
});
