import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { privateKeyToAccount } from "viem/accounts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { v2Header } from "../../helpers/sign.ts";
import { jsonRpcChain, verifyFairness, verifyOnChain } from "../../../plugins/arcade/_fair.js";
import { player } from "./_arcade.ts";

let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
before(async () => {
  // A block every second, transactions still mined at once: the service's own devnet does the same every 2 s.
  devnet = await startDevnet({ blockTime: 1, mixedMining: true });
  service = await startPaidService(devnet, {
    families: ["arcade"],
    env: { UPSTREAM_PAYMENT_CHAIN_URL: devnet.rpcUrl },
  });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

const cli = fileURLToPath(new URL("../../../plugins/arcade/_verify-cli.ts", import.meta.url));

test("a paid dice play on the devnet: $0.005 in USDC, drawn by a block mined after the payment settled, checked against the chain", async () => {
  const chain = chainReader(devnet);
  const url = `${service.baseUrl}/v1/arcade/play`;
  const body = JSON.stringify({ game: "dice", choice: "seven", salt: "devnet-salt", player: player() });
  const post = (headers: Record<string, string> = {}) =>
    service.fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  const challenge = await post();
  assert.equal(challenge.status, 402);
  const required = JSON.parse(Buffer.from(challenge.headers.get("payment-required")!, "base64").toString("utf8"));
  assert.equal(required.accepts[0].amount ?? required.accepts[0].maxAmountRequired, "5000");
  const { header } = await v2Header(privateKeyToAccount(devnet.accounts.payer.privateKey), required);
  const paidBefore = await chain.balance(devnet.accounts.payTo.address);

  const res = await post({ "payment-signature": header });
  assert.equal(res.status, 200, await res.clone().text());
  const { data: answer } = await res.json();
  assert.equal(answer.status, "pending");
  const receipt = JSON.parse(Buffer.from(res.headers.get("payment-response")!, "base64").toString("utf8"));
  const settledIn = (await chain.client.getTransactionReceipt({ hash: receipt.transaction })).blockNumber;
  assert.equal((await chain.balance(devnet.accounts.payTo.address)) - paidBefore, 5000n);

  const me = async () =>
    (await (await service.fetch(`${service.baseUrl}/v1/arcade/me?id=${answer.player.id}`)).json()).data.plays[0];
  const deciding = (await me()).awaiting.decidingBlock;
  assert.ok(BigInt(deciding) > settledIn, `block ${deciding} decides a play paid in block ${settledIn}`);
  await new Promise<void>((resolve) => {
    const stop = chain.client.watchBlockNumber({
      pollingInterval: 100,
      onBlockNumber: (n) => void (n >= BigInt(deciding) && (stop(), resolve())),
    });
  });
  assert.equal(await service.jobs.run("arcade-draw"), true);
  const settled = await me();
  assert.equal(settled.status, "settled");
  const block = await chain.client.getBlock({ blockNumber: BigInt(deciding) });
  assert.deepEqual(
    [settled.fairness.blockNumber, settled.fairness.blockHash, settled.fairness.network],
    [deciding, block.hash, "eip155:84532"],
  );
  assert.equal(settled.won, settled.sum === 7);
  assert.equal((await verifyFairness(settled.fairness)).ok, true);
  assert.deepEqual(await verifyOnChain(settled.fairness, jsonRpcChain(devnet.rpcUrl)), { ok: true, problems: [] });
  const cliRun = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", cli, "--rpc", devnet.rpcUrl, JSON.stringify(settled.fairness)],
    { encoding: "utf8" },
  );
  assert.match(cliRun.stdout, /^OK: eip155:84532 has these blocks/m);
});
