import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { appendPaymentIdentifierToExtensions } from "@x402/extensions/payment-identifier";
import { decodePaymentResponseHeader, wrapFetchWithPayment } from "@x402/fetch";
import { defineEndpoint, definePlugin } from "../../../core/endpoint.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { permit2Token } from "../../helpers/permit2.ts";

/**
 * The real clients pay with the devnet's test DAI (18 decimals, no EIP-3009) through Permit2, on every transport:
 * @x402/fetch on a GET, on a POST with a JSON body and on the batch, and the MCP SDK client with x402's MCP payment
 * (`_meta["x402/payment"]`). Each call: its handler once, one Transfer of exactly its price in the token's units.
 */
const runs = { count: 0, echo: 0 };
const count = defineEndpoint({
  name: "p2c-count",
  method: "GET",
  price: "$0.02",
  mcp: true,
  summary: "Counts its runs",
  input: v.object({ key: v.pipe(v.string(), v.maxLength(64)) }),
  output: v.object({ key: v.string() }),
  example: { input: { key: "k" }, output: { key: "k" } },
  handler: ({ input }) => {
    runs.count++;
    return { key: input.key };
  },
});
const echo = defineEndpoint({
  name: "p2c-echo",
  method: "POST",
  price: "$0.03",
  summary: "Echoes a JSON body",
  input: v.object({ items: v.pipe(v.array(v.number()), v.maxLength(8)) }),
  output: v.object({ sum: v.number() }),
  example: { input: { items: [1, 2] }, output: { sum: 3 } },
  handler: ({ input }) => {
    runs.echo++;
    return { sum: input.items.reduce((a, b) => a + b, 0) };
  },
});
const plugin = definePlugin({ family: "p2c", endpoints: [count, echo] });

/** Dollars in the 18-decimal token's units (10^12 per USDC atomic unit). */
const dai = (micro: bigint) => micro * 10n ** 12n;

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let token: ReturnType<typeof permit2Token>;
let mcp: Client;
before(async () => {
  devnet = await startDevnet();
  service = await startPaidService(devnet, { plugins: [plugin], permit2: true });
  token = permit2Token(devnet, devnet.dai.address);
  mcp = new Client({ name: "exact-permit2-clients", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`), { fetch: service.fetch }));
});
after(async () => {
  await mcp?.close();
  await devnet?.stop();
});

const paying = async () => {
  const account = await token.wallet(dai(1_000_000n), true);
  return { account, fetch: wrapFetchWithPayment(service.fetch, token.client(account)) };
};

test("exact-permit2 with @x402/fetch on a GET: one run, one Transfer of $0.02 in 18-decimal units, the receipt names it", async () => {
  const { account, fetch } = await paying();
  const before = runs.count;
  const res = await fetch(`${service.baseUrl}/v1/p2c-count?key=get`);
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual((await res.json()).data, { key: "get" });
  const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
  assert.equal(receipt.payer?.toLowerCase(), account.address.toLowerCase());
  assert.deepEqual([runs.count - before, await token.transfersFrom(account.address)], [1, [dai(20_000n)]]);
});

test("exact-permit2 with @x402/fetch on a POST with a JSON body: the body reaches the handler once, one Transfer of $0.03", async () => {
  const { account, fetch } = await paying();
  const before = runs.echo;
  const res = await fetch(`${service.baseUrl}/v1/p2c-echo`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ items: [1, 2, 39] }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual((await res.json()).data, { sum: 42 });
  assert.deepEqual([runs.echo - before, await token.transfersFrom(account.address)], [1, [dai(30_000n)]]);
});

test("exact-permit2 with @x402/fetch on the batch: each item runs once, the items' sum ($0.07) in one Transfer", async () => {
  const { account, fetch } = await paying();
  const before = { ...runs };
  const calls = [
    { path: "/v1/p2c-count", params: { key: "b1" } },
    { path: "/v1/p2c-count", params: { key: "b2" } },
    { path: "/v1/p2c-echo", params: { items: [5] } },
  ];
  const res = await fetch(`${service.baseUrl}/v1/batch`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ calls }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const { data } = await res.json();
  assert.deepEqual(
    data.results.map((r: { status: number }) => r.status),
    [200, 200, 200],
  );
  assert.deepEqual([runs.count - before.count, runs.echo - before.echo], [2, 1]);
  assert.deepEqual(await token.transfersFrom(account.address), [dai(70_000n)]);
});

test("exact-permit2 over MCP: the SDK client pays the tool's PaymentRequired with a Permit2 payload in _meta; one run, one Transfer, the receipt in _meta; the same payment again replays, nothing moves", async () => {
  const account = await token.wallet(dai(1_000_000n), true);
  const call = (payment?: unknown): Promise<any> =>
    mcp.callTool({
      name: "p2c-count",
      arguments: { key: "mcp" },
      ...(payment ? { _meta: { "x402/payment": payment } } : {}),
    });
  const unpaid = await call();
  assert.equal(unpaid.isError, true);
  const offer = unpaid.structuredContent.accepts.find((a: { asset: string }) => a.asset === devnet.dai.address);
  assert.deepEqual([offer.amount, offer.extra.assetTransferMethod], [String(dai(20_000n)), "permit2"]);
  const payment = await token.client(account).createPaymentPayload(unpaid.structuredContent);
  assert.ok("permit2Authorization" in payment.payload);
  appendPaymentIdentifierToExtensions((payment.extensions ??= {}));
  const before = runs.count;
  const paid = await call(payment);
  assert.notEqual(paid.isError, true, JSON.stringify(paid.structuredContent));
  assert.deepEqual(paid.structuredContent.data, { key: "mcp" });
  const receipt = paid._meta["x402/payment-response"];
  assert.deepEqual([receipt.success, receipt.payer.toLowerCase()], [true, account.address.toLowerCase()]);
  const again = await call(payment);
  assert.deepEqual(again._meta["x402/payment-response"], receipt);
  assert.deepEqual([runs.count - before, await token.transfersFrom(account.address)], [1, [dai(20_000n)]]);
});
