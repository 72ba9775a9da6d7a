import { after, test } from "node:test";
import assert from "node:assert/strict";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  http,
  namehash,
  type Abi,
  type Address,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compileContract } from "../../../core/x402/devnet/compile.ts";
import { devnetChain, startDevnet } from "../../../core/x402/devnet/index.ts";
import { ENS_REGISTRY } from "../../../plugins/onchain/_ens.ts";
import { startTestService } from "../../helpers/service.ts";
import { chainEnv } from "./_devnet.ts";
import { dataOf } from "../../helpers/expect.ts";
import ensEndpoint from "../../../plugins/onchain/ens.ts";

// A minimal ENS on anvil: a registry placed at the mainnet registry address and one resolver, set up as ENS would be.
const [devnet, registry, resolver] = await Promise.all([
  startDevnet(),
  compileContract("TestEnsRegistry", new URL("./contracts/", import.meta.url)),
  compileContract("TestEnsResolver", new URL("./contracts/", import.meta.url)),
]);
after(() => devnet.stop());
const chain = devnetChain(devnet.rpcUrl);
const [owner, alice, bob] = devnet.accounts.others;
const wallet = createWalletClient({
  chain,
  transport: http(devnet.rpcUrl),
  account: privateKeyToAccount(owner.privateKey),
});
const reader = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
await createTestClient({ chain, mode: "anvil", transport: http(devnet.rpcUrl) }).setCode({
  address: ENS_REGISTRY,
  bytecode: registry.deployedBytecode,
});
const mined = async (hash: `0x${string}`) =>
  assert.equal((await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status, "success");
const resolverAddress = getAddress(
  (
    await reader.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi: resolver.abi, bytecode: resolver.bytecode }),
      pollingInterval: 20,
    })
  ).contractAddress!,
);
const write = async (address: Address, abi: Abi, functionName: string, args: unknown[]) =>
  mined(await wallet.writeContract({ address, abi, functionName, args, chain }));
const reverseNode = (address: Address) => namehash(`${address.slice(2).toLowerCase()}.addr.reverse`);
for (const node of [namehash("alice.eth"), namehash("bob.eth"), reverseNode(alice.address), reverseNode(bob.address)])
  await write(ENS_REGISTRY, registry.abi, "setResolver", [node, resolverAddress]);
await write(resolverAddress, resolver.abi, "setAddr", [namehash("alice.eth"), alice.address]);
await write(resolverAddress, resolver.abi, "setText", [namehash("alice.eth"), "com.github", "alice-dev"]);
await write(resolverAddress, resolver.abi, "setText", [namehash("alice.eth"), "url", "https://alice.example"]);
await write(resolverAddress, resolver.abi, "setName", [reverseNode(alice.address), "alice.eth"]);
// bob claims alice's name in his reverse record: a claim that does not resolve back.
await write(resolverAddress, resolver.abi, "setName", [reverseNode(bob.address), "alice.eth"]);
await write(resolverAddress, resolver.abi, "setAddr", [namehash("bob.eth"), bob.address]);

const service = await startTestService({ plugins: ["onchain"], env: chainEnv(["ethereum"], devnet.rpcUrl) });

test("ens: a name resolves to its address and text records, and is the address's primary name", async () => {
  const out = await service.call(ensEndpoint, { name: "Alice.ETH" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.lookup, data.name, data.address, data.resolver, data.primary],
    ["forward", "alice.eth", alice.address, resolverAddress, true],
  );
  assert.deepEqual(
    [data.records["com.github"], data.records.url, data.records.avatar],
    ["alice-dev", "https://alice.example", null],
  );
});

test("ens: a name that is not its address's primary name says so", async () => {
  const data = dataOf(await service.call(ensEndpoint, { name: "bob.eth" }));
  assert.deepEqual([data.address, data.primary], [bob.address, false]);
});

test("ens: reverse lookup counts a primary name only when it resolves back", async () => {
  const verified = dataOf(await service.call(ensEndpoint, { name: alice.address.toLowerCase() }));
  assert.deepEqual(
    [verified.lookup, verified.name, verified.address, verified.primary],
    ["reverse", "alice.eth", alice.address, true],
  );
  const claimed = dataOf(await service.call(ensEndpoint, { name: bob.address }));
  assert.deepEqual([claimed.name, claimed.address, claimed.primary], ["alice.eth", alice.address, false]);
});

test("ens: an unregistered name and an address without a primary name are 404s", async () => {
  assert.equal((await service.call(ensEndpoint, { name: "nobody.eth" })).status, 404);
  assert.equal((await service.call(ensEndpoint, { name: owner.address })).status, 404);
});

test("ens: bad names and chains are a 400 before the node is asked", async () => {
  for (const [path, field] of [
    ["/v1/ens?name=no%20spaces.eth", "name"],
    ["/v1/ens?name=vitalik.eth&chain=base", "chain"],
    ["/v1/ens?name=0x1234", "name"],
  ]) {
    const res = await service.request(path);
    assert.equal(res.status, 400, path);
    assert.ok(
      (await res.json()).error.details.issues.some((i: any) => i.field === field),
      path,
    );
  }
  const invalid = await service.call(ensEndpoint, { name: "a_b\u200d.eth" });
  assert.equal(invalid.status, 400, JSON.stringify(invalid.body));
});

test("ens: the node down is a 502", async () => {
  const out = await service.call(ensEndpoint, { name: "alice.eth", chain: "sepolia" });
  assert.equal(out.status, 502, JSON.stringify(out.body));
});
