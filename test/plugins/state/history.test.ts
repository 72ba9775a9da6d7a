import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { definePlugin } from "../../../core/endpoint.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { probePlugin } from "../../helpers/probe-plugin.ts";
import { signInHeaders, signInTo } from "../../helpers/sign-in.ts";
import history from "../../../plugins/state/my-history.ts";

const base = "http://127.0.0.1:4021";
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;

before(async () => {
  devnet = await startDevnet();
  const state = definePlugin({ family: "state", endpoints: [history] });
  service = await startPaidService(devnet, { plugins: [probePlugin, state] });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

const payer = () => privateKeyToAccount(devnet.accounts.payer.privateKey);
function paidFetch() {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer() });
  client.setSpendControls(false);
  return wrapFetchWithPayment(service.fetch, client);
}

test("state/history: a paid call is a row of the payer's history, read signed in for free, its receipt the one sent", async () => {
  const res = await paidFetch()(`${base}/v1/probe?echo=history`);
  assert.equal(res.status, 200);
  const { header } = await signInTo((path) => service.fetch(base + path), "/v1/state/history", payer());
  const history = await service.fetch(`${base}/v1/state/history?limit=1`, { headers: signInHeaders(header) });
  assert.equal(history.status, 200);
  const [row] = (await history.json()).data.calls;
  assert.equal(row.route, "GET /v1/probe");
  assert.equal(row.receipt, res.headers.get("payment-receipt"));
  assert.equal(row.transaction, decodePaymentResponseHeader(res.headers.get("payment-response")!).transaction);
});
