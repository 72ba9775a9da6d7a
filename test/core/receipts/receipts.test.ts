// test: own-process: runs the receipts CLI as processes
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/client";
import { toClientEvmSigner } from "@x402/evm";
import { createPublicClient, http } from "viem";
import {
  createJWS,
  decodeSignedOffers,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  extractReceiptPayload,
  findAcceptsObjectFromSignedOffer,
  verifyOfferSignatureJWS,
  type JWSSignedOffer,
} from "@x402/extensions/offer-receipt";
import { appendPaymentIdentifierToExtensions } from "@x402/extensions/payment-identifier";
import { privateKeyToAccount } from "viem/accounts";
import { listen } from "../../../core/runtime/listen.ts";
import { devnetSigningKey, serviceKey } from "../../../core/receipts/key.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { freePort } from "../../../bench/lib/ports.ts";
import { devnetChain } from "../../../core/x402/devnet/index.ts";
import { tsNodeArgs } from "../../helpers/ts-node.ts";

const run = promisify(execFile);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let running: Awaited<ReturnType<typeof listen>>;

before(async () => {
  devnet = await startDevnet();
  service = await startPaidService(devnet, { plugins: [probePlugin], env: { BASE_URL: base }, batch: {} });
  running = await listen(service.app, { port, host: "127.0.0.1", handlerTimeoutMs: 30_000 });
});
after(async () => {
  await running?.close(true);
  await service?.close();
  await devnet?.stop();
});

const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
const requiredOf = (res: Response) =>
  JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());

function paidFetch() {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer() });
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "exact"));
  client.setSpendControls(false);
  return wrapFetchWithPayment(fetch, client);
}

const verifyAt = (input: Record<string, string>) =>
  fetch(`${base}/v1/receipts/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  }).then(async (r) => ({ status: r.status, data: (await r.json()).data }));

async function verifyWithCommand(receipt: string, body: string, claims: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), "receipt-"));
  writeFileSync(join(dir, "receipt.jws"), receipt);
  writeFileSync(join(dir, "body.json"), body);
  const args = tsNodeArgs(
    "core/receipts/cli.ts",
    "--receipt",
    join(dir, "receipt.jws"),
    "--body",
    join(dir, "body.json"),
  );
  try {
    const { stdout } = await run(process.execPath, [...args, ...claims]);
    return { code: 0, verdict: JSON.parse(stdout) };
  } catch (e) {
    const failed = e as { code: number; stdout: string };
    return { code: failed.code, verdict: JSON.parse(failed.stdout) };
  }
}

test("receipts: every 402 carries one offer per accepts entry, signed by the published key, the same bytes on every request", async () => {
  const headers = new Set<string>();
  for (let i = 0; i < 20; i++) headers.add((await fetch(`${base}/v1/probe?echo=x`)).headers.get("payment-required")!);
  assert.equal(headers.size, 1, "20 unpaid requests, one signing: the same challenge every time");
  const required = requiredOf(await fetch(`${base}/v1/probe?echo=x`));
  const offers = extractOffersFromPaymentRequired(required);
  assert.equal(offers.length, required.accepts.length);
  const did = await (await fetch(`${base}/.well-known/did.json`)).json();
  const jwk = did.verificationMethod[0].publicKeyJwk;
  for (const [i, decoded] of decodeSignedOffers(offers).entries()) {
    assert.equal(decoded.acceptIndex, i);
    assert.equal(findAcceptsObjectFromSignedOffer(decoded, required.accepts), required.accepts[i]);
    const payload = await verifyOfferSignatureJWS(offers[i] as JWSSignedOffer, jwk);
    assert.equal(payload.resourceUrl, `${base}/v1/probe`);
    assert.equal(payload.amount, required.accepts[i].amount);
    assert.ok(payload.validUntil * 1000 > Date.now() + 60_000, "an offer has at least a minute left");
  }
  assert.equal(did.id, `did:web:127.0.0.1%3A${port}`);
});

test("receipts: a paid call's receipt verifies by the command and the endpoint; a changed byte, route, price or key is refused", async () => {
  const runs = handlerRuns.count;
  const res = await paidFetch()(`${base}/v1/probe?echo=receipt`);
  assert.equal(res.status, 200);
  const body = await res.text();
  assert.equal(handlerRuns.count - runs, 1);
  const receipt = res.headers.get("payment-receipt")!;
  // The extension's client finds the same receipt in PAYMENT-RESPONSE.
  const fromExtension = extractReceiptFromResponse(res);
  assert.equal(fromExtension?.format, "jws");
  assert.equal((fromExtension as { signature: string }).signature, receipt);
  const settlement = decodePaymentResponseHeader(res.headers.get("payment-response")!);
  const claims = extractReceiptPayload(fromExtension!) as unknown as Record<string, string>;
  assert.deepEqual(
    { ...claims, issuedAt: undefined, requestHash: undefined, bodySha256: undefined },
    {
      version: 1,
      network: settlement.network,
      resourceUrl: `${base}/v1/probe`,
      payer: devnet.accounts.payer.address,
      transaction: settlement.transaction,
      route: "GET /v1/probe",
      price: "1000",
      charged: "1000",
      issuedAt: undefined,
      requestHash: undefined,
      bodySha256: undefined,
    },
  );

  const valid = [
    await verifyAt({ receipt, body, route: "GET /v1/probe", price: "1000" }),
    await verifyWithCommand(receipt, body, ["--route", "GET /v1/probe", "--price", "1000"]),
  ];
  assert.deepEqual(
    valid.map((v) => ("verdict" in v ? [v.code, v.verdict.valid] : [v.status, v.data.valid])),
    [
      [200, true],
      [0, true],
    ],
  );

  const flipped = body.replace('"receipt"', '"reveipt"');
  assert.equal(flipped.length, body.length);
  const forger = serviceKey(`0x${"11".repeat(32)}`, base);
  const forged = await createJWS(claims, { ...forger.signer, kid: serviceKey(devnetSigningKey, base).kid });
  const refusals = [
    await verifyAt({ receipt, body: flipped }),
    await verifyAt({ receipt, body, route: "GET /v1/probe-expensive" }),
    await verifyAt({ receipt, body, price: "100" }),
    await verifyAt({ receipt: forged, body }),
  ];
  assert.deepEqual(
    refusals.map((r) => [r.status, r.data.valid, r.data.reason]),
    [
      [200, false, "body_mismatch"],
      [200, false, "route_mismatch"],
      [200, false, "price_mismatch"],
      [200, false, "bad_signature"],
    ],
  );
  const byCommand = [
    await verifyWithCommand(receipt, flipped),
    await verifyWithCommand(receipt, body, ["--route", "GET /v1/probe-expensive"]),
    await verifyWithCommand(receipt, body, ["--price", "100"]),
    await verifyWithCommand(forged, body),
  ];
  assert.deepEqual(
    byCommand.map((r) => [r.code, r.verdict.reason]),
    [
      [1, "body_mismatch"],
      [1, "route_mismatch"],
      [1, "price_mismatch"],
      [1, "bad_signature"],
    ],
  );
});

test("receipts: a retry with the payment's identifier, in a later second, gets the same answer with the same receipt; the handler ran once", async () => {
  const url = `${base}/v1/probe?echo=again`;
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer() });
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "exact"));
  client.setSpendControls(false);
  const payment = await client.createPaymentPayload(requiredOf(await fetch(url)));
  appendPaymentIdentifierToExtensions((payment.extensions ??= {}));
  const header = { "payment-signature": Buffer.from(JSON.stringify(payment)).toString("base64") };
  const runs = handlerRuns.count;
  const first = await fetch(url, { headers: header });
  assert.equal(first.status, 200);
  // A receipt is dated in whole seconds: the retry comes in a later one than the answer.
  await new Promise((resolve) => setTimeout(resolve, 1_020 - (Date.now() % 1_000)));
  const again = await fetch(url, { headers: header });
  assert.equal(again.headers.get("x-payment-replayed"), "true");
  assert.deepEqual(
    ["payment-receipt", "payment-response"].map((name) => again.headers.get(name)),
    ["payment-receipt", "payment-response"].map((name) => first.headers.get(name)),
  );
  assert.equal(await again.text(), await first.text());
  assert.equal(handlerRuns.count - runs, 1);
});

test("receipts: a voucher-paid call's receipt names the voucher's channel: the deposit's transaction first, then the channel", async () => {
  const reader = createPublicClient({ chain: devnetChain(devnet.rpcUrl), transport: http(devnet.rpcUrl) });
  const client = new x402Client();
  client.register(
    devnet.network,
    new BatchSettlementEvmScheme(toClientEvmSigner(payer(), reader), { depositStrategy: () => "1000000" }),
  );
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "batch-settlement"));
  client.setSpendControls(false);
  const paying = wrapFetchWithPayment(fetch, client);
  const runs = handlerRuns.count;
  const receipts = [];
  for (const echo of ["deposit", "voucher"]) {
    const res = await paying(`${base}/v1/probe?echo=${echo}`);
    assert.equal(res.status, 200);
    const body = await res.text();
    const settlement = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    const claims = extractReceiptPayload(extractReceiptFromResponse(res)!) as unknown as Record<string, string>;
    const verdict = await verifyAt({ receipt: res.headers.get("payment-receipt")!, body, price: "1000" });
    receipts.push({ settlement, claims, valid: verdict.data.valid });
  }
  assert.equal(handlerRuns.count - runs, 2);
  const [deposit, voucher] = receipts;
  const channel = (voucher.settlement.extra as { channelState: { channelId: string } }).channelState.channelId;
  assert.match(channel, /^0x[0-9a-f]{64}$/i);
  assert.match(deposit.settlement.transaction, /^0x[0-9a-f]{64}$/i);
  assert.deepEqual(
    receipts.map((r) => [r.claims.channel, r.claims.transaction, r.claims.payer.toLowerCase(), r.valid]),
    [
      [channel, deposit.settlement.transaction, devnet.accounts.payer.address.toLowerCase(), true],
      [channel, `channel:${channel}`, devnet.accounts.payer.address.toLowerCase(), true],
    ],
  );
});
