import { after } from "node:test";
import {
  concatHex,
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  maxUint256,
  parseUnits,
  type Abi,
  type Address,
  type Hash,
  type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compileContract, type CompiledContract } from "../../../core/x402/devnet/compile.ts";
import { devnetChain, startDevnet, type DevAccount } from "../../../core/x402/devnet/index.ts";
import { chainRpcs } from "../../../plugins/_shared/chains.ts";
import { upstreamUrlEnv } from "../../helpers/service.ts";

const contractsDir = new URL("./contracts/", import.meta.url);

/** A loopback port nothing listens on: a chain's node that is down. */
export const deadNode = "http://127.0.0.1:9";

/** `UPSTREAM_<SLUG>_RPC_URL` for every chain: those in `slugs` at `rpcUrl`, the others at a dead node (never a public one). */
export function chainEnv(slugs: string[], rpcUrl: string): Record<string, string> {
  return upstreamUrlEnv(chainRpcs, (name) => (slugs.some((slug) => name === `${slug}-rpc`) ? rpcUrl : deadNode));
}

/** What the scenario left on the chain, for the tests to query through the API. */
export interface Scene {
  rpcUrl: string;
  /** The service's environment: the scene's chains on this anvil, every other chain's node a closed port. */
  env: Record<string, string>;
  alice: Address;
  bob: Address;
  carol: Address;
  dave: Address;
  /** Never sent or received anything. */
  fresh: Address;
  token: Address;
  /** The devnet's test USDC, minted to every dev account. */
  usdc: Address;
  nft: Address;
  proxy: Address;
  clone: Address;
  tokenAbi: Abi;
  tx: {
    deployToken: Hash;
    transfer: Hash;
    approveUnlimited: Hash;
    approveBob: Hash;
    revokeDave: Hash;
    approveNftAll: Hash;
  };
  blocks: { deployToken: bigint; transfer: bigint; latest: bigint };
}

/**
 * One anvil per test file: deploys an ERC-20, an ERC-721, an EIP-1967 proxy and an EIP-1167 clone, makes a transfer
 * and approvals; `scene.env` points the chains named in `slugs` at it (`UPSTREAM_<SLUG>_RPC_URL`).
 */
export async function startScene(slugs: string[] = ["base-sepolia"]): Promise<Scene> {
  const [devnet, token, nft, proxy] = await Promise.all([
    startDevnet(),
    compileContract("TestToken", contractsDir),
    compileContract("TestNft", contractsDir),
    compileContract("TestProxy", contractsDir),
  ]);
  after(() => devnet.stop());

  const chain = devnetChain(devnet.rpcUrl);
  const publicClient = createPublicClient({ chain, transport: http(devnet.rpcUrl), cacheTime: 0 });
  const [aliceKey, bobKey, carolKey, daveKey, freshKey] = devnet.accounts.others;
  const wallet = (account: DevAccount) =>
    createWalletClient({ chain, transport: http(devnet.rpcUrl), account: privateKeyToAccount(account.privateKey) });
  const alice = wallet(aliceKey);
  const mined = async (hash: Hash) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") throw new Error(`scene transaction ${hash} reverted`);
    return receipt;
  };
  const deploy = async (artifact: CompiledContract, args: unknown[]) => {
    const hash = await alice.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args });
    return { hash, address: getAddress((await mined(hash)).contractAddress!) };
  };
  const write = async (address: Address, abi: Abi, functionName: string, args: unknown[]) =>
    mined(await alice.writeContract({ address, abi, functionName, args }));

  const tokenDeployed = await deploy(token, ["Test Token", "TTK", 18, parseUnits("1000000", 18)]);
  const transfer = await write(tokenDeployed.address, token.abi, "transfer", [bobKey.address, parseUnits("250", 18)]);
  const approveUnlimited = await write(tokenDeployed.address, token.abi, "approve", [carolKey.address, maxUint256]);
  const approveBob = await write(tokenDeployed.address, token.abi, "approve", [bobKey.address, parseUnits("100", 18)]);
  await write(tokenDeployed.address, token.abi, "approve", [daveKey.address, parseUnits("5", 18)]);
  const revokeDave = await write(tokenDeployed.address, token.abi, "approve", [daveKey.address, 0n]);

  const nftDeployed = await deploy(nft, ["Test NFT", "TNFT"]);
  await write(nftDeployed.address, nft.abi, "mint", [aliceKey.address, 1n]);
  await write(nftDeployed.address, nft.abi, "mint", [bobKey.address, 2n]);
  const approveNftAll = await write(nftDeployed.address, nft.abi, "setApprovalForAll", [carolKey.address, true]);

  const proxyDeployed = await deploy(proxy, [tokenDeployed.address, bobKey.address]);
  // EIP-1167 minimal proxy of the token, deployed from its raw init code.
  const cloneInit = concatHex([
    "0x3d602d80600a3d3981f3363d3d373d3d3d363d73",
    tokenDeployed.address,
    "0x5af43d82803e903d91602b57fd5bf3",
  ]);
  const clone = await mined(await alice.sendTransaction({ data: cloneInit as Hex }));

  return {
    rpcUrl: devnet.rpcUrl,
    env: chainEnv(slugs, devnet.rpcUrl),
    alice: aliceKey.address,
    bob: bobKey.address,
    carol: carolKey.address,
    dave: daveKey.address,
    fresh: freshKey.address,
    token: tokenDeployed.address,
    usdc: getAddress(devnet.usdc.address),
    nft: nftDeployed.address,
    proxy: proxyDeployed.address,
    clone: getAddress(clone.contractAddress!),
    tokenAbi: token.abi,
    tx: {
      deployToken: tokenDeployed.hash,
      transfer: transfer.transactionHash,
      approveUnlimited: approveUnlimited.transactionHash,
      approveBob: approveBob.transactionHash,
      revokeDave: revokeDave.transactionHash,
      approveNftAll: approveNftAll.transactionHash,
    },
    blocks: {
      deployToken: (await publicClient.getTransactionReceipt({ hash: tokenDeployed.hash })).blockNumber,
      transfer: transfer.blockNumber,
      latest: await publicClient.getBlockNumber(),
    },
  };
}
