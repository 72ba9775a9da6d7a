import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { x402Client } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import { signAuthorization } from "../../helpers/sign.ts";
import { appendPaymentIdentifierToExtensions } from "@x402/extensions/payment-identifier";

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let chain: ReturnType<typeof chainReader>;
let mcp: Client;

before(async () => {
  devnet = await startDevnet();
  chain = chainReader(devnet);
  service = await startPaidService(devnet, { families: ["converters"] });
  mcp = new Client({ name: "mcp-payments-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`), { fetch: service.fetch }));
});
after(async () => {
  await mcp?.close();
  await service?.close();
  await devnet?.stop();
});

const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
const payTo = () => devnet.accounts.payTo.address;
const text = (result: any) => JSON.parse(result.content[0].text);
const hash = (args: Record<string, unknown>, payment?: unknown): Promise<any> =>
  mcp.callTool({ name: "hash", arguments: args, ...(payment ? { _meta: { "x402/payment": payment } } : {}) });

/** What an x402 MCP client does: read the requirements from the error result and sign with @x402/evm. */
async function payFor(args: Record<string, unknown>, call = hash) {
  const unpaid = await call(args);
  assert.equal(unpaid.isError, true);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer() });
  client.setSpendControls(false);
  const payload = await client.createPaymentPayload(unpaid.structuredContent);
  // The payer's secret for safe retries, as @x402/extensions' client helper adds it.
  appendPaymentIdentifierToExtensions((payload.extensions ??= {}));
  return payload;
}

test("a paid tool call verifies, runs, settles once and returns the receipt in _meta", async () => {
  const payment = await payFor({ text: "mcp" });
  const before = await chain.balance(payTo());
  const result = await hash({ text: "mcp" }, payment);
  assert.notEqual(result.isError, true);
  assert.equal(result.structuredContent.data.hex, createHash("sha256").update("mcp").digest("hex"));
  assert.equal(result.structuredContent.meta.endpoint, "hash");
  assert.deepEqual(text(result), result.structuredContent);
  const receipt = result._meta["x402/payment-response"];
  assert.equal(receipt.success, true);
  assert.equal(receipt.network, "eip155:84532");
  assert.equal(receipt.payer, devnet.accounts.payer.address);
  assert.match(receipt.transaction, /^0x[0-9a-f]{64}$/);
  assert.equal((await chain.balance(payTo())) - before, 1000n);

  // The same payment for the same call again: the stored answer and receipt, no second transfer (as over HTTP).
  const retry = await hash({ text: "mcp" }, payment);
  assert.deepEqual(retry.structuredContent.data, result.structuredContent.data);
  assert.deepEqual(retry._meta["x402/payment-response"], receipt);
  assert.equal((await chain.balance(payTo())) - before, 1000n);
});

test("a replayed payment for another call is refused as a PaymentRequired with the reason payment_already_used; nothing moves", async () => {
  const payment = await payFor({ text: "first" });
  assert.notEqual((await hash({ text: "first" }, payment)).isError, true);
  const before = await chain.balance(payTo());
  const replay = await hash({ text: "second" }, payment);
  assert.equal(replay.isError, true);
  assert.equal(replay.structuredContent.reason, "payment_already_used");
  assert.equal(replay.structuredContent.x402Version, 2);
  assert.equal(replay.structuredContent.accepts[0].amount, "1000");
  assert.deepEqual(text(replay), replay.structuredContent);
  assert.equal(await chain.balance(payTo()), before);
});

test("a tampered payment is refused with the HTTP reason and the requirements; nothing moves", async () => {
  const payment: any = await payFor({ text: "tamper" });
  const before = await chain.balance(payTo());
  const cheaper = {
    ...payment,
    accepted: { ...payment.accepted, amount: "1" },
    payload: { ...payment.payload, authorization: { ...payment.payload.authorization, value: "1" } },
  };
  const refused = await hash({ text: "tamper" }, cheaper);
  assert.equal(refused.isError, true);
  assert.match(refused.structuredContent.reason, /value_mismatch/);
  assert.equal(refused.structuredContent.accepts[0].amount, "1000");
  assert.deepEqual(text(refused), refused.structuredContent);

  const forged = await hash(
    { text: "tamper" },
    {
      ...payment,
      payload: {
        ...payment.payload,
        authorization: { ...payment.payload.authorization, nonce: `0x${"1".repeat(64)}` },
      },
    },
  );
  assert.match(forged.structuredContent.reason, /invalid_exact_evm_signature/);
  assert.equal(await chain.balance(payTo()), before);
});

test("a v1 PaymentPayload in _meta is taken like X-PAYMENT: settled, with a v1 receipt", async () => {
  const unpaid = await hash({ text: "v1" });
  const requirement = unpaid.structuredContent.accepts[0];
  const before = await chain.balance(payTo());
  const payload = await signAuthorization(payer(), requirement);
  const result = await hash({ text: "v1" }, { x402Version: 1, scheme: "exact", network: "base-sepolia", payload });
  assert.notEqual(result.isError, true);
  assert.equal(result._meta["x402/payment-response"].network, "base-sepolia");
  assert.equal((await chain.balance(payTo())) - before, 1000n);
});

test("a settlement that fails withholds the answer: the requirements with the reason, nothing charged", async () => {
  const failing = (real: Facilitator): Facilitator => ({
    verify: real.verify,
    settle: async () => ({
      success: false,
      errorReason: "invalid_exact_evm_transaction_failed",
      transaction: "",
      network: "eip155:84532",
    }),
  });
  const failingService = await startPaidService(devnet, { families: ["converters"], facilitator: failing });
  const client = new Client({ name: "mcp-settle-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${failingService.baseUrl}/mcp`), { fetch: failingService.fetch }),
  );
  try {
    const call = (args: Record<string, unknown>, payment?: unknown): Promise<any> =>
      client.callTool({ name: "hash", arguments: args, ...(payment ? { _meta: { "x402/payment": payment } } : {}) });
    const payment = await payFor({ text: "withheld" }, call);
    const before = await chain.balance(payTo());
    const result = await call({ text: "withheld" }, payment);
    assert.equal(result.isError, true);
    assert.match(result.structuredContent.reason, /transaction_failed/);
    assert.doesNotMatch(JSON.stringify(result), new RegExp(createHash("sha256").update("withheld").digest("hex")));
    assert.equal(await chain.balance(payTo()), before);
  } finally {
    await client.close();
    await failingService.close();
  }
});

test("a client that reads only the text content pays a paid tool", async () => {
  const unpaid = await hash({ text: "text only" });
  const required = JSON.parse((unpaid.content as any)[0].text);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer() });
  client.setSpendControls(false);
  const payment = await client.createPaymentPayload(required);
  const before = await chain.balance(payTo());
  const paid = await hash({ text: "text only" }, payment);
  assert.notEqual(paid.isError, true);
  assert.equal(JSON.parse(paid.content[0].text).data.hex, createHash("sha256").update("text only").digest("hex"));
  assert.equal((await chain.balance(payTo())) - before, 1000n);
});

test("call_endpoint pays for an endpoint that is not a tool, at that endpoint's price", async () => {
  const slugify = service.runtime.endpoints.find((e) => e.name === "slugify")!;
  assert.notEqual(slugify.mcp, true);
  const call = (args: Record<string, unknown>, payment?: unknown): Promise<any> =>
    mcp.callTool({
      name: "call_endpoint",
      arguments: { name: "slugify", arguments: args },
      ...(payment ? { _meta: { "x402/payment": payment } } : {}),
    });
  const payment = await payFor({ text: "Hello World" }, call);
  const before = await chain.balance(payTo());
  const result = await call({ text: "Hello World" }, payment);
  assert.notEqual(result.isError, true);
  assert.equal(result.structuredContent.meta.endpoint, "slugify");
  assert.equal(result._meta["x402/payment-response"].success, true);
  assert.equal((await chain.balance(payTo())) - before, BigInt(service.runtime.payments.requirements(slugify).amount));
});
