import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { privateKeyToAccount } from "viem/accounts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { v2Header } from "../../helpers/sign.ts";
import { verifyFairness } from "../../../plugins/arcade/_fair.js";
import { player } from "./_arcade.ts";

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
before(async () => {
  devnet = await startDevnet();
  service = await startPaidService(devnet, { families: ["arcade"], env: { UPSTREAM_PAYMENT_CHAIN_URL: devnet.rpcUrl } });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

test("a paid dice play on the devnet: $0.005 in USDC, seeded by the chain's real latest block", async () => {
  const chain = chainReader(devnet);
  const url = `${service.baseUrl}/v1/arcade/play`;
  const body = JSON.stringify({ game: "dice", choice: "seven", salt: "devnet-salt", player: player() });
  const post = (headers: Record<string, string> = {}) => service.fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  const challenge = await post();
  assert.equal(challenge.status, 402);
  const required = JSON.parse(Buffer.from(challenge.headers.get("payment-required")!, "base64").toString("utf8"));
  assert.equal(required.accepts[0].amount ?? required.accepts[0].maxAmountRequired, "5000");
  const { header } = await v2Header(privateKeyToAccount(devnet.accounts.payer.privateKey), required);
  const paidBefore = await chain.balance(devnet.accounts.payTo.address);

  const res = await post({ "payment-signature": header });
  assert.equal(res.status, 200, await res.clone().text());
  const { data } = await res.json();
  const block = await chain.client.getBlock({ blockNumber: BigInt(data.fairness.blockNumber) });
  assert.equal(data.fairness.blockHash, block.hash);
  assert.equal(data.fairness.network, "eip155:84532");
  assert.equal((await verifyFairness(data.fairness)).ok, true);
  assert.equal(data.won, data.sum === 7);
  assert.equal((await chain.balance(devnet.accounts.payTo.address)) - paidBefore, 5000n);
});
