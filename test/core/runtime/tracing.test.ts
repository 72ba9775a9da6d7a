// test: own-process: sets OpenTelemetry's global context manager
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as v from "valibot";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { startTracing } from "../../../core/runtime/tracing.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";

// A collector as an operator runs one: OTLP/HTTP JSON posted to /v1/traces, here a plain server in the test.
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

const spans: OtlpSpan[] = [];
const upstreamHeaders: IncomingHttpHeaders[] = [];
let collector: Server;
let upstream: Server;
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let stopTracing: () => Promise<void>;
let flush: () => Promise<void>;

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const rates = defineEndpoint({
  name: "traced-rates",
  method: "GET",
  price: "$0.001",
  summary: "Reads one upstream",
  upstreams: ["rates"],
  input: v.object({}),
  output: v.object({ ok: v.boolean() }),
  example: { input: {}, output: { ok: true } },
  handler: async (ctx) => ({ ok: Boolean(await ctx.upstream("rates").json("/latest")) }),
});

before(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      for (const r of body.resourceSpans ?? []) for (const s of r.scopeSpans ?? []) spans.push(...(s.spans ?? []));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  upstream = createServer((req, res) => {
    upstreamHeaders.push(req.headers);
    res.writeHead(200, { "content-type": "application/json" }).end('{"rate":1}');
  });
  const [collectorUrl, upstreamUrl] = await Promise.all([listen(collector), listen(upstream)]);
  ({ stop: stopTracing, flush } = await startTracing({ endpoint: collectorUrl, serviceName: "tracing-test" }));
  devnet = await startDevnet();
  service = await startPaidService(devnet, {
    plugins: [
      definePlugin({
        family: "traced",
        endpoints: [rates],
        upstreams: { rates: { url: "https://rates.invalid", terms: "test: a local stand-in" } },
      }),
    ],
    env: { UPSTREAM_RATES_URL: upstreamUrl },
  });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
  await stopTracing?.();
  collector?.close();
  upstream?.close();
});

test("a paid call's spans reach the collector: the caller's trace kept, the payment's phases under the call, the upstream under the handler", async () => {
  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  const callerSpan = "00f067aa0ba902b7";
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(devnet.accounts.payer.privateKey) });
  client.setSpendControls(false);
  const res = await wrapFetchWithPayment(service.fetch, client)("http://127.0.0.1:4021/v1/traced-rates", {
    headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
  });
  assert.equal(res.status, 200);
  await flush();

  const ours = spans.filter((s) => s.traceId === traceId);
  const paid = ours.filter((s) => s.name === "call traced-rates" && s.parentSpanId === callerSpan);
  // Two calls continue the caller's trace: the unpaid one (its 402) and the paid one, which has phases.
  assert.equal(paid.length, 2, JSON.stringify(ours.map((s) => s.name)));
  const call = paid.find((c) => ours.some((s) => s.parentSpanId === c.spanId))!;
  const children = ours.filter((s) => s.parentSpanId === call.spanId).map((s) => s.name);
  assert.deepEqual(children.sort(), ["effects", "handler", "settle", "verify"]);
  const handler = ours.find((s) => s.parentSpanId === call.spanId && s.name === "handler")!;
  const upstreamSpans = ours.filter((s) => s.name === "upstream rates");
  assert.equal(upstreamSpans.length, 1);
  assert.equal(upstreamSpans[0].parentSpanId, handler.spanId);

  // The upstream was told the trace, and the span that called it.
  assert.equal(upstreamHeaders.length, 1);
  assert.equal(upstreamHeaders[0].traceparent, `00-${traceId}-${upstreamSpans[0].spanId}-01`);
});

test("a call without a traceparent starts its own trace; a malformed one is ignored, not trusted", async () => {
  for (const traceparent of [undefined, "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "garbage"]) {
    const before = spans.length;
    const res = await service.fetch("http://127.0.0.1:4021/v1/traced-rates", {
      headers: traceparent ? { traceparent } : {},
    });
    assert.equal(res.status, 402);
    await flush();
    const fresh = spans.slice(before).filter((s) => s.name === "call traced-rates");
    assert.equal(fresh.length, 1);
    assert.equal(fresh[0].parentSpanId ?? "", "");
    assert.match(fresh[0].traceId, /^[0-9a-f]{32}$/);
    assert.notEqual(fresh[0].traceId, "0".repeat(32));
  }
});
