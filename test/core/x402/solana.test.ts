import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import pino from "pino";
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { generateKeyPairSigner, getBase64Decoder, getBase64Encoder, type KeyPairSigner } from "@solana/kit";
import { privateKeyToAccount } from "viem/accounts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Facilitator } from "../../../core/x402/facilitator-api.ts";
import { createRedisStore, type RedisStore } from "../../../core/runtime/redis-store.ts";
import {
  chainReader,
  startDevnet,
  startPaidService,
  startSolanaDevnet,
  type Devnet,
  type SolanaDevnet,
} from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import { redisMissing, startRedis, type RedisServer } from "../../helpers/redis.ts";
import { challengeOf, newPaymentId, toHeader } from "../../helpers/sign.ts";

/**
 * Solana beside EVM on one route, paid with the real @x402/svm client and settled by @x402/svm's facilitator
 * on the local SVM, with the rail's guarantees (free-rides.test.ts): one grant per payment (20 copies, two instances), settle
 * before grant, nothing charged for a failure, an unknown outcome reconciled against the chain.
 */
type Paid = Awaited<ReturnType<typeof startPaidService>>;
let evm: Devnet;
let solana: SolanaDevnet;
let service: Paid;
let settleMode: "real" | "refuse" | "times-out" = "real";
const url = (path: string) => `http://127.0.0.1:4021${path}`;
const price = 1000n;

const faulty = (real: Facilitator): Facilitator => ({
  verify: (payload, requirements) => real.verify(payload, requirements),
  async settle(payload, requirements) {
    if (settleMode === "refuse")
      return {
        success: false,
        errorReason: "invalid_exact_svm_transaction_failed",
        transaction: "",
        network: String((requirements as { network: string }).network),
      };
    const settled = await real.settle(payload, requirements);
    if (settleMode === "times-out")
      throw Object.assign(new Error("facilitator request timed out"), { name: "FacilitatorTimeoutError" });
    return settled;
  },
});

before(async () => {
  [evm, solana] = await Promise.all([startDevnet(), startSolanaDevnet()]);
  service = await startPaidService(evm, {
    plugins: [probePlugin],
    solana,
    facilitator: faulty,
    solanaConfirmationTimeoutMs: 1500,
  });
});
after(async () => {
  await service?.close();
  await Promise.all([evm?.stop(), solana?.stop()]);
});

/** A fresh Solana wallet holding `amount` test USDC and nothing on any EVM chain. */
async function solanaHolder(amount = 10_000n) {
  const signer = await generateKeyPairSigner();
  await solana.fund(signer.address, amount);
  return signer;
}
const svmScheme = (signer: KeyPairSigner) => new ExactSvmScheme(signer, { rpcUrl: solana.rpcUrl });

/** A v2 payment header for the route's Solana offer, made by the real @x402/svm client. */
async function solanaHeader(
  signer: KeyPairSigner,
  path: string,
  change: (accepted: any) => any = (a) => a,
  paymentId?: string,
) {
  const required = await challengeOf(service.fetch, url(path));
  const accepted = required.accepts.find((a: { network: string }) => a.network === solana.network);
  const { payload } = await svmScheme(signer).createPaymentPayload(2, change(accepted));
  const extensions = paymentId
    ? { extensions: { "payment-identifier": { info: { required: false, id: paymentId } } } }
    : {};
  return toHeader({ x402Version: 2, resource: required.resource, accepted, payload, ...extensions });
}
const pay = (path: string, header: string) => service.fetch(url(path), { headers: { "payment-signature": header } });
const payToBalance = () => solana.balance(solana.accounts.payTo.address);

test("solana: the 402 offers Solana beside EVM: v2 with the facilitator's fee payer, v1 as solana-devnet", async () => {
  const res = await service.fetch(url("/v1/probe?echo=hi"));
  const v2 = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
  const offer = v2.accepts[1];
  assert.deepEqual(
    [offer.network, offer.asset, offer.payTo, offer.amount, offer.extra],
    [
      solana.network,
      solana.usdc.address,
      solana.accounts.payTo.address,
      "1000",
      { feePayer: solana.accounts.feePayer.address },
    ],
  );
  assert.deepEqual(
    (await res.json()).accepts.map((a: { network: string }) => a.network),
    ["base-sepolia", "solana-devnet"],
  );
});

test("solana: a client holding money only on Solana pays the route with @x402/fetch and @x402/svm; exactly the price moves", async () => {
  const signer = await solanaHolder();
  const before = await payToBalance();
  const client = new x402Client();
  client.register("solana:*", svmScheme(signer));
  client.setSpendControls(false);
  const res = await wrapFetchWithPayment(service.fetch, client)(url("/v1/probe?echo=sol"));
  assert.equal(res.status, 200);
  assert.deepEqual((await res.json()).data, { echo: "sol", payer: signer.address });
  const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
  assert.deepEqual([receipt.success, receipt.network, receipt.payer], [true, solana.network, signer.address]);
  assert.match(receipt.transaction, /^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
  assert.equal((await payToBalance()) - before, price);
  assert.equal(await solana.balance(signer.address), 10_000n - price);
});

test("solana: one client with the EVM and SVM schemes registered pays on the network it picks, and only there", async () => {
  const evmPayer = privateKeyToAccount(evm.accounts.payer.privateKey);
  const signer = await solanaHolder();
  const client = (prefer: string) => {
    const c = new x402Client((_version, accepts) => accepts.find((a) => a.network.startsWith(prefer)) ?? accepts[0]);
    registerExactEvmScheme(c, { signer: evmPayer });
    c.register("solana:*", svmScheme(signer));
    c.setSpendControls(false);
    return wrapFetchWithPayment(service.fetch, c);
  };
  const evmPayTo = chainReader(evm);
  const [solBefore, evmBefore] = [await payToBalance(), await evmPayTo.balance(evm.accounts.payTo.address)];
  const onSolana = await client("solana:")(url("/v1/probe?echo=pick-sol"));
  assert.equal(decodePaymentResponseHeader(onSolana.headers.get("payment-response")!).network, solana.network);
  const onEvm = await client("eip155:")(url("/v1/probe?echo=pick-evm"));
  assert.equal(decodePaymentResponseHeader(onEvm.headers.get("payment-response")!).network, evm.network);
  assert.equal((await payToBalance()) - solBefore, price);
  assert.equal((await evmPayTo.balance(evm.accounts.payTo.address)) - evmBefore, price);
});

test("solana: 20 copies of one payment at once: one handler run, one 200, nineteen 409, one transfer", async () => {
  const signer = await solanaHolder();
  const header = await solanaHeader(signer, "/v1/probe?echo=twenty");
  const runs = handlerRuns.count;
  const answers = await Promise.all(Array.from({ length: 20 }, () => pay("/v1/probe?echo=twenty", header)));
  const statuses = answers.map((r) => r.status).sort();
  assert.deepEqual(statuses, [200, ...Array(19).fill(409)]);
  assert.equal(handlerRuns.count - runs, 1);
  assert.equal(await solana.balance(signer.address), 10_000n - price);
});

test("solana: a failed handler charges nothing, and its payment never runs another request", async () => {
  const signer = await solanaHolder();
  const header = await solanaHeader(signer, "/v1/probe?outcome=crash");
  const res = await pay("/v1/probe?outcome=crash", header);
  assert.equal(res.status, 500);
  assert.equal(res.headers.get("payment-response"), null);
  assert.equal(await solana.balance(signer.address), 10_000n);
  assert.equal((await pay("/v1/probe?outcome=crash", header)).status, 409);
  assert.equal(await solana.balance(signer.address), 10_000n);
});

test("solana: a refused settlement withholds the answer and charges nothing", async () => {
  const signer = await solanaHolder();
  const header = await solanaHeader(signer, "/v1/probe?echo=refused");
  settleMode = "refuse";
  let res: Response;
  try {
    res = await pay("/v1/probe?echo=refused", header);
  } finally {
    settleMode = "real";
  }
  assert.equal(res.status, 402);
  const body = await res.json();
  assert.equal(body.reason, "invalid_exact_svm_transaction_failed");
  assert.equal(JSON.stringify(body).includes('refused"'), false, "the answer is withheld");
  assert.equal(await solana.balance(signer.address), 10_000n);
});

test("solana: a settlement whose outcome is unknown but landed is reconciled from the chain and credited once", async () => {
  const signer = await solanaHolder();
  const paymentId = newPaymentId();
  const header = await solanaHeader(signer, "/v1/probe?echo=pending", undefined, paymentId);
  settleMode = "times-out";
  let res: Response;
  try {
    res = await pay("/v1/probe?echo=pending", header);
  } finally {
    settleMode = "real";
  }
  assert.equal(res.status, 402);
  const { reason, creditCode } = await res.json();
  assert.equal(reason, "settlement_pending");
  assert.equal(await service.credits.balance(creditCode), 0n);
  await service.reconciler.reconcileOnce();
  await service.reconciler.reconcileOnce();
  assert.equal(await service.credits.balance(creditCode), price);
  // The payer's retry with its payment identifier learns the funded code; the payment is never run again.
  const retry = await pay("/v1/probe?echo=pending", header);
  assert.equal(retry.status, 409);
  assert.equal((await retry.json()).error.details.creditCode, creditCode);
});

test("solana: a send whose reply is lost and never landed stays pending while it could land, then is dropped, nothing charged", async () => {
  const signer = await solanaHolder();
  const header = await solanaHeader(signer, "/v1/probe?echo=lost");
  solana.node.loseSends(true);
  let res: Response;
  try {
    res = await pay("/v1/probe?echo=lost", header);
  } finally {
    solana.node.loseSends(false);
  }
  assert.equal(res.status, 402);
  const { reason, creditCode } = await res.json();
  assert.equal(reason, "settlement_pending");
  await service.reconciler.reconcileOnce();
  assert.equal(
    (await service.ledger.pendingSettlements()).filter((p) => p.creditCode === creditCode).length,
    1,
    "kept while its blockhash is valid",
  );
  solana.node.skipMinute();
  await service.reconciler.reconcileOnce();
  assert.equal((await service.ledger.pendingSettlements()).filter((p) => p.creditCode === creditCode).length, 0);
  assert.equal(await service.credits.balance(creditCode), 0n);
  assert.equal(await solana.balance(signer.address), 10_000n);
});

test("solana: a transaction paying another account, or signed by someone else, is refused before anything runs", async () => {
  const signer = await solanaHolder();
  const runs = handlerRuns.count;
  const elsewhere = await solanaHeader(signer, "/v1/probe?echo=x", (a) => ({
    ...a,
    payTo: solana.accounts.others[0].address,
  }));
  const r1 = await pay("/v1/probe?echo=x", elsewhere);
  assert.equal(r1.status, 402);
  assert.equal((await r1.json()).reason, "invalid_exact_svm_payload_recipient_mismatch");
  // One bit of the payer's signature flipped (it sits right after the fee payer's empty one).
  const good = JSON.parse(Buffer.from(await solanaHeader(signer, "/v1/probe?echo=x"), "base64").toString("utf8"));
  const bytes = new Uint8Array(getBase64Encoder().encode(good.payload.transaction));
  bytes[1 + 64 + 10] ^= 1;
  good.payload.transaction = getBase64Decoder().decode(bytes);
  const r2 = await pay("/v1/probe?echo=x", toHeader(good));
  assert.equal(r2.status, 402);
  assert.equal((await r2.json()).reason, "invalid_exact_svm_payload_signature_invalid");
  assert.equal(handlerRuns.count, runs);
  assert.equal(await solana.balance(signer.address), 10_000n);
});

test("solana: OpenAPI, the manifest, /.well-known/x402, llms.txt and /health list every option", async () => {
  const get = async (path: string) => (await service.fetch(url(path))).text();
  const networks = [evm.network, solana.network];
  const openapi = JSON.parse(await get("/openapi.json"));
  const accepts = openapi.paths["/v1/probe"].get["x-payment-info"].protocols[0].x402.accepts;
  assert.deepEqual(
    accepts.map((a: { network: string }) => a.network),
    networks,
  );
  assert.match(openapi.info.description, /Base Sepolia \(eip155:84532\).*Solana devnet \(solana:EtWT/);
  const manifest = JSON.parse(await get("/x402-manifest"));
  assert.deepEqual(
    manifest.payment.options.map((o: { network: string }) => o.network),
    networks,
  );
  assert.deepEqual(
    manifest.resources
      .find((r: { name: string }) => r.name === "probe")
      .accepts.map((a: { network: string }) => a.network),
    networks,
  );
  assert.match(
    JSON.parse(await get("/.well-known/x402")).instructions,
    new RegExp(`Solana devnet \\(${solana.network}\\), token ${solana.usdc.address}`),
  );
  assert.match(
    await get("/llms.txt"),
    new RegExp(`Base Sepolia \\(eip155:84532\\), token ${evm.usdc.address}; Solana devnet`),
  );
  assert.deepEqual(
    JSON.parse(await get("/health")).payment.map((o: { network: string }) => o.network),
    networks,
  );
});

test("solana: MCP's payment requirements list every option, and an MCP client pays a tool on Solana", async () => {
  const mcp = new Client({ name: "solana-mcp-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`), { fetch: service.fetch }));
  try {
    const call = (payment?: unknown): Promise<any> =>
      mcp.callTool({
        name: "call_endpoint",
        arguments: { name: "probe", arguments: { echo: "mcp" } },
        ...(payment ? { _meta: { "x402/payment": payment } } : {}),
      });
    const unpaid = await call();
    assert.equal(unpaid.isError, true);
    assert.deepEqual(
      unpaid.structuredContent.accepts.map((a: { network: string }) => a.network),
      [evm.network, solana.network],
    );
    const signer = await solanaHolder();
    const client = new x402Client();
    client.register("solana:*", svmScheme(signer));
    client.setSpendControls(false);
    const payload = await client.createPaymentPayload(unpaid.structuredContent);
    const paid = await call(payload);
    assert.notEqual(paid.isError, true);
    assert.equal(paid.structuredContent.data.echo, "mcp");
    const receipt = paid._meta["x402/payment-response"];
    assert.deepEqual([receipt.success, receipt.network, receipt.payer], [true, solana.network, signer.address]);
    assert.equal(await solana.balance(signer.address), 10_000n - price);
  } finally {
    await mcp.close();
  }
});

test("solana: two instances on one Redis, copies of one payment alternating between them: one handler run, one transfer", {
  skip: redisMissing,
}, async () => {
  let redis: RedisServer | undefined;
  const stores: RedisStore[] = [];
  const instances: Paid[] = [];
  try {
    redis = await startRedis();
    for (let i = 0; i < 2; i++) {
      const store = await createRedisStore(redis.url, pino({ level: "silent" }));
      stores.push(store);
      instances.push(await startPaidService(evm, { plugins: [probePlugin], solana, store }));
    }
    const signer = await solanaHolder();
    const header = await solanaHeader(signer, "/v1/probe?echo=two");
    const runs = handlerRuns.count;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        instances[i % 2].fetch(url("/v1/probe?echo=two"), { headers: { "payment-signature": header } }),
      ),
    );
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, ...Array(9).fill(409)]);
    assert.equal(handlerRuns.count - runs, 1);
    assert.equal(await solana.balance(signer.address), 10_000n - price);
  } finally {
    for (const s of instances) await s.close();
    for (const s of stores) await s.close();
    await redis?.stop();
  }
});
