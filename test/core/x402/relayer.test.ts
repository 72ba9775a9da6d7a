import { after, test } from "node:test";
import assert from "node:assert/strict";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startDevnet } from "../../helpers/paid.ts";
import { createRelayer } from "../../../core/x402/relayer.ts";

const devnet = await startDevnet();
after(() => devnet.stop());
const client = createPublicClient({ transport: http(devnet.rpcUrl, { batch: true }) });
const account = privateKeyToAccount(devnet.accounts.others[3].privateKey);
const to = devnet.accounts.others[4].address;

test("a burst of sends all land, with consecutive nonces, none left waiting in the node's pool", async () => {
  const relayer = createRelayer(client, account, devnet.chainId);
  const first = await client.getTransactionCount({ address: account.address });
  const hashes = await Promise.all(Array.from({ length: 60 }, () => relayer.send({ to, data: "0x", gas: 21_000n })));
  const receipts = await Promise.all(
    hashes.map((hash) => client.waitForTransactionReceipt({ hash, pollingInterval: 50 })),
  );
  assert.ok(receipts.every((r) => r.status === "success"));
  const nonces = await Promise.all(hashes.map(async (hash) => (await client.getTransaction({ hash })).nonce));
  assert.deepEqual(
    [...nonces].sort((a, b) => a - b),
    Array.from({ length: 60 }, (_, i) => first + i),
  );
  assert.equal(await client.getTransactionCount({ address: account.address, blockTag: "pending" }), first + 60);
});

test("a send the node refuses leaves no gap: the next one counts from the node again", async () => {
  const relayer = createRelayer(client, account, devnet.chainId);
  const before = await client.getTransactionCount({ address: account.address });
  await assert.rejects(relayer.send({ to, data: "0x", gas: 1_000n }), /gas/i);
  const hash = await relayer.send({ to, data: "0x", gas: 21_000n });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  assert.equal(receipt.status, "success");
  assert.equal((await client.getTransaction({ hash })).nonce, before);
});
