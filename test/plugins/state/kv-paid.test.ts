import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let chain: ReturnType<typeof chainReader>;
const url = (path: string) => `http://127.0.0.1:4021${path}`;

before(async () => {
  devnet = await startDevnet();
  chain = chainReader(devnet);
  service = await startPaidService(devnet, { families: ["state"] });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

function payingAs(account: PrivateKeyAccount) {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  client.setSpendControls(false);
  return wrapFetchWithPayment(service.fetch, client);
}

test("two wallets paying on the devnet store the same key apart; each reads back only its own value", async () => {
  const alice = privateKeyToAccount(devnet.accounts.payer.privateKey);
  const bob = privateKeyToAccount(devnet.accounts.others[0].privateKey);
  const payTo = devnet.accounts.payTo.address;
  const before = await chain.balance(payTo);

  const aliceStore = await payingAs(alice)(url("/v1/store?key=plan&value=alice-plan&ttl=600"));
  assert.equal(aliceStore.status, 200);
  assert.equal(decodePaymentResponseHeader(aliceStore.headers.get("payment-response")!).payer, alice.address);
  const bobStore = await payingAs(bob)(url("/v1/store?key=plan&value=bob-plan"));
  assert.equal(bobStore.status, 200);
  assert.equal((await bobStore.json()).data.overwritten, false, "bob's write did not touch alice's key");

  const aliceRead = await payingAs(alice)(url("/v1/retrieve?key=plan"));
  assert.equal((await aliceRead.json()).data.value, "alice-plan");
  const bobRead = await payingAs(bob)(url("/v1/retrieve?key=plan"));
  assert.equal((await bobRead.json()).data.value, "bob-plan");
  assert.equal((await chain.balance(payTo)) - before, 10_000n + 10_000n + 5_000n + 5_000n);
});

test("a wallet reading a key only another wallet stored gets 404 and pays nothing", async () => {
  const alice = privateKeyToAccount(devnet.accounts.payer.privateKey);
  const carol = privateKeyToAccount(devnet.accounts.others[1].privateKey);
  assert.equal((await payingAs(alice)(url("/v1/store?key=secret-plan&value=mine"))).status, 200);
  const carolBefore = await chain.balance(carol.address);
  const res = await payingAs(carol)(url("/v1/retrieve?key=secret-plan"));
  assert.equal(res.status, 404);
  assert.equal((await res.json()).error.code, "not_found");
  assert.equal(await chain.balance(carol.address), carolBefore);
});
