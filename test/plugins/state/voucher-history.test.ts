import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/client";
import { extractReceiptPayload, extractReceiptFromResponse } from "@x402/extensions/offer-receipt";
import { SIGN_IN_WITH_X, createSIWxPayload, encodeSIWxHeader } from "@x402/extensions/sign-in-with-x";
import { privateKeyToAccount } from "viem/accounts";
import { definePlugin } from "../../../core/endpoint.ts";
import { escrowOn } from "../../helpers/channels.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { handlerRuns, probePlugin } from "../../helpers/probe-plugin.ts";
import history from "../../../plugins/state/my-history.ts";

const base = "http://127.0.0.1:4021";
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;

before(async () => {
  devnet = await startDevnet();
  const state = definePlugin({ family: "state", endpoints: [history] });
  service = await startPaidService(devnet, { plugins: [probePlugin, state], batch: {} });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

const requiredOf = (res: Response) =>
  JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString());

async function signedIn(account: ReturnType<typeof privateKeyToAccount>, path: string) {
  const challenge = requiredOf(await service.fetch(`${base}/v1/state/history`)).extensions[SIGN_IN_WITH_X];
  const chainId = challenge.supportedChains[0].chainId;
  const payload = await createSIWxPayload({ ...challenge.info, chainId, type: "eip191" }, account, `${base}${path}`);
  return service.fetch(`${base}${path}`, { headers: { [SIGN_IN_WITH_X]: encodeSIWxHeader(payload) } });
}

test("vouchers: each voucher-paid answer carries a signed receipt that /v1/receipts/verify accepts, and is a row of the payer's history", async () => {
  const wallet = privateKeyToAccount(devnet.accounts.others[0].privateKey);
  const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(wallet, escrowOn(devnet).reader), {
    depositStrategy: () => "100000",
  });
  const client = new x402Client().register(devnet.network, scheme).setSpendControls(false);
  client.registerPolicy((_v, accepts) => accepts.filter((a) => a.scheme === "batch-settlement"));
  const pay = wrapFetchWithPayment(service.fetch, client);

  const runs = handlerRuns.count;
  const paid: { receipt: string | null; body: string; channel?: string; transaction?: string }[] = [];
  // The deposit's call, then two plain vouchers on its channel.
  for (const echo of ["deposit", "voucher", "again"]) {
    const res = await pay(`${base}/v1/probe?echo=${echo}`);
    assert.equal(res.status, 200);
    const found = extractReceiptFromResponse(res);
    const claims = found && (extractReceiptPayload(found) as unknown as Record<string, string>);
    paid.push({
      receipt: res.headers.get("payment-receipt"),
      body: await res.text(),
      channel: claims?.channel,
      transaction: claims?.transaction,
    });
  }
  const verdicts = await Promise.all(
    paid.map(({ receipt, body }) =>
      service
        .fetch(`${base}/v1/receipts/verify`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ receipt: receipt ?? "", body, route: "GET /v1/probe", price: "1000" }),
        })
        .then(async (r) => [r.status, (await r.json()).data?.valid]),
    ),
  );
  const rows = (await (await signedIn(wallet, "/v1/state/history?limit=10")).json()).data.calls as {
    route: string;
    charged: string;
    network: string;
    receipt?: string;
  }[];
  const channel = paid[0].channel;
  assert.deepEqual(
    {
      runs: handlerRuns.count - runs,
      receipts: paid.filter((p) => p.receipt).length,
      verdicts,
      channels: paid.map((p) => p.channel),
      // The deposit's call names the deposit's transaction; a plain voucher's, its channel.
      transactions: paid.map((p, i) => (i === 0 ? /^0x[0-9a-f]{64}$/.test(p.transaction ?? "") : p.transaction)),
      rows: rows.length,
      rowRoutes: rows.map((r) => r.route),
      rowCharges: rows.map((r) => r.charged),
      rowNetworks: rows.map((r) => r.network),
      // Newest first: each row holds the receipt its answer carried.
      rowReceipts: rows.map((r) => r.receipt),
    },
    {
      runs: 3,
      receipts: 3,
      verdicts: [
        [200, true],
        [200, true],
        [200, true],
      ],
      channels: [channel, channel, channel],
      transactions: [true, `channel:${channel}`, `channel:${channel}`],
      rows: 3,
      rowRoutes: ["GET /v1/probe", "GET /v1/probe", "GET /v1/probe"],
      rowCharges: ["1000", "1000", "1000"],
      rowNetworks: [devnet.network, devnet.network, devnet.network],
      rowReceipts: paid.map((p) => p.receipt).reverse(),
    },
  );
  assert.match(channel ?? "", /^0x[0-9a-f]{64}$/);
});
