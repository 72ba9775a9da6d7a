import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { SIWxSigner } from "@x402/extensions/sign-in-with-x";
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  keccak256,
  serializeErc6492Signature,
  toHex,
  type Hex,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { compileContract } from "../../../core/x402/devnet/compile.ts";
import { devnetChain } from "../../../core/x402/devnet/index.ts";
import { startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { signInHeaders, signInTo } from "../../helpers/sign-in.ts";
import { definePlugin } from "../../../core/endpoint.ts";
import myKeys from "../../../plugins/state/my-keys.ts";
import { stateKeys } from "../../../plugins/state/_wallet.ts";

// Contract wallets sign in on the devnet chain: a deployed one by ERC-1271, one not yet deployed by ERC-6492 (the
// service proves both with viem's verifyMessage over RPC_URL); a signature its owner did not make is refused.
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let factory: Hex;
let factoryAbi: Awaited<ReturnType<typeof compileContract>>["abi"];
const owner = privateKeyToAccount(generatePrivateKey());
let reader: ReturnType<typeof createPublicClient>;

before(async () => {
  devnet = await startDevnet();
  service = await startPaidService(devnet, {
    plugins: [definePlugin({ family: "state", endpoints: [myKeys] })],
    env: { RPC_URL: devnet.rpcUrl, X402_NETWORK: devnet.network },
  });
  const artifact = await compileContract("WalletFactory", new URL("./contracts/", import.meta.url));
  factoryAbi = artifact.abi;
  const chain = devnetChain(devnet.rpcUrl);
  reader = createPublicClient({ chain, transport: http(devnet.rpcUrl) });
  const deployer = createWalletClient({
    chain,
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(devnet.accounts.payer.privateKey),
  });
  const receipt = await reader.waitForTransactionReceipt({
    hash: await deployer.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode }),
    pollingInterval: 20,
  });
  factory = receipt.contractAddress!;
  const deployed = await reader.waitForTransactionReceipt({
    hash: await deployer.writeContract({
      address: factory,
      abi: artifact.abi,
      functionName: "deploy",
      args: [owner.address, salt("deployed")],
    }),
    pollingInterval: 20,
  });
  assert.equal(deployed.status, "success");
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

const salt = (name: string) => keccak256(toHex(name));
const walletOf = (name: string) =>
  reader.readContract({
    address: factory,
    abi: factoryAbi,
    functionName: "addressOf",
    args: [owner.address, salt(name)],
  }) as Promise<Hex>;

/** The wallet as the extension's client sees a signer: its address, and its owner's key signing for it. */
const contractSigner = (address: Hex, sign: (message: string) => Promise<Hex>): SIWxSigner =>
  ({ address, signMessage: ({ message }: { message: string }) => sign(message) }) as unknown as SIWxSigner;

async function keysWith(signer: SIWxSigner) {
  const path = "/v1/state/keys";
  const get = (p: string) => service.fetch(`${service.baseUrl}${p}`);
  const { header } = await signInTo(get, path, signer, devnet.network);
  return service.fetch(`${service.baseUrl}${path}`, { headers: signInHeaders(header) });
}

test("sign-in: a deployed contract wallet (ERC-1271) reads its own keys; a key that is not its owner's is refused", async () => {
  const wallet = await walletOf("deployed");
  assert.notEqual(await reader.getCode({ address: wallet }), undefined, "deployed");
  const at = new Date().toISOString();
  const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
  await service.store.set(stateKeys.value(wallet.toLowerCase(), "smart/one"), {
    value: "kept",
    version: 1,
    createdAt: at,
    updatedAt: at,
    expiresAt,
  });
  const read = await keysWith(contractSigner(wallet, (message) => owner.signMessage({ message })));
  assert.equal(read.status, 200);
  assert.deepEqual(
    (await read.json()).data.keys.map((k: { key: string }) => k.key),
    ["smart/one"],
  );
  const stranger = privateKeyToAccount(generatePrivateKey());
  const refused = await keysWith(contractSigner(wallet, (message) => stranger.signMessage({ message })));
  assert.equal(refused.status, 401);
  assert.ok(!(await refused.text()).includes("smart/one"));
});

test("sign-in: a contract wallet not yet deployed signs in by ERC-6492; a wrapped signature of another key is refused", async () => {
  const wallet = await walletOf("counterfactual");
  assert.equal(await reader.getCode({ address: wallet }), undefined, "not deployed");
  const factoryData = encodeFunctionData({
    abi: factoryAbi,
    functionName: "deploy",
    args: [owner.address, salt("counterfactual")],
  });
  const wrapped = (key: typeof owner) => async (message: string) =>
    serializeErc6492Signature({ address: factory, data: factoryData, signature: await key.signMessage({ message }) });
  const read = await keysWith(contractSigner(wallet, wrapped(owner)));
  assert.equal(read.status, 200, await read.clone().text());
  assert.deepEqual((await read.json()).data.keys, []);
  const refused = await keysWith(contractSigner(wallet, wrapped(privateKeyToAccount(generatePrivateKey()))));
  assert.equal(refused.status, 401);
  assert.equal(await reader.getCode({ address: wallet }), undefined, "proving it deployed nothing");
});
