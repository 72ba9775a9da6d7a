import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  getContractAddress,
  http,
  maxUint256,
  toHex,
  TransactionReceiptNotFoundError,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type TransactionReceipt,
} from "viem";
import { pbkdf2Sync } from "node:crypto";
import { HDKey, hdKeyToAccount, privateKeyToAccount } from "viem/accounts";
import { startAnvil, type Anvil } from "./anvil.ts";
import { compileContract, compileTestUsdc, testUsdcAbi, type CompiledContract } from "./compile.ts";
import type { DevnetContract } from "../../endpoint.ts";
import {
  BATCH_SETTLEMENT_ADDRESS,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  PERMIT2_ADDRESS,
  x402ExactPermit2ProxyAddress,
  x402UptoPermit2ProxyAddress,
} from "@x402/evm";

export { testUsdcAbi } from "./compile.ts";
export { startAnvil } from "./anvil.ts";

/** Anvil's well-known mnemonic; its keys are public, so nothing here ever guards real money. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";
export const DEV_ACCOUNT_COUNT = 10;
export const DEV_USDC_PER_ACCOUNT = 1_000_000n * 10n ** 6n;
export const DEV_DAI_PER_ACCOUNT = 1_000_000n * 10n ** 18n;

export type DevAccount = { address: Address; privateKey: Hex };

export type DevnetOptions = {
  port?: number;
  blockTime?: number;
  mixedMining?: boolean;
  /** Contracts the loaded families need (`definePlugin({ devnet })`), deployed one after another by payTo, which owns them. */
  contracts?: readonly DevnetContract[];
};

export type Devnet = {
  rpcUrl: string;
  chainId: number;
  network: "eip155:84532";
  v1Network: "base-sepolia";
  usdc: { address: Address; name: "USDC"; version: "2"; decimals: 6 };
  /** A plain ERC-20 of 18 decimals without EIP-3009 or EIP-2612 (TestDAI.sol): paid for through Permit2 only. */
  dai: { address: Address; name: "Test DAI"; decimals: 18 };
  /** The families' contracts, by name. */
  contracts: Record<string, Address>;
  /** Our batch-settlement escrow and its ERC-3009 deposit collector, at the addresses @x402/evm signs for. */
  batchSettlement: { address: Address; depositCollector: Address };
  /** Our Permit2 (its SignatureTransfer part) and x402's upto proxy, at the addresses @x402/evm signs for. */
  upto: { permit2: Address; proxy: Address };
  /** x402's exact proxy (`exact` with Permit2, for tokens without EIP-3009), at the address @x402/evm signs for. */
  exactPermit2Proxy: Address;
  accounts: {
    /** Deployed the token and pays gas for settlements. */
    relayer: DevAccount;
    /** Receives payments. */
    payTo: DevAccount;
    /** Pays in `npm run pay` and the tests. */
    payer: DevAccount;
    others: DevAccount[];
  };
  stop(): Promise<void>;
};

export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11";

// Chain id 84532 lets v1 clients accept the devnet as "base-sepolia".
const DEVNET_CHAIN_ID = 84532;
const RECEIPT_TIMEOUT_MS = 60_000;

let devKeyRoot: HDKey | undefined;

// BIP-39 seed computed once with native PBKDF2: viem's mnemonicToAccount redoes it in pure JS per account,
// which cost about 300 ms for the ten dev accounts.
function devKeyRootOnce(): HDKey {
  devKeyRoot ??= HDKey.fromMasterSeed(pbkdf2Sync(DEV_MNEMONIC.normalize("NFKD"), "mnemonic", 2048, 64, "sha512"));
  return devKeyRoot;
}

export function devAccount(addressIndex: number): DevAccount {
  const account = hdKeyToAccount(devKeyRootOnce(), { addressIndex });
  const privateKey = account.getHdKey().privateKey;
  if (!privateKey) throw new Error(`no private key derived for dev account ${addressIndex}`);
  return { address: account.address, privateKey: toHex(privateKey) };
}

export function devnetChain(rpcUrl: string, chainId = DEVNET_CHAIN_ID): Chain {
  return defineChain({
    id: chainId,
    name: "x402 devnet",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS } },
  });
}

/**
 * What `startDevnet` will hold, known before it starts: its chain, the dev payer, and each family contract's
 * address (payTo deploys them one after another from its first nonce; the service checks they landed there).
 */
export function plannedDevnet(contracts: readonly DevnetContract[]) {
  const owner = devAccount(1).address;
  const tokenDeployer = devAccount(0).address;
  return {
    chainId: DEVNET_CHAIN_ID,
    payer: devAccount(2),
    /** The relayer deploys test USDC, then test DAI, from its first two nonces. */
    tokens: {
      usdc: getContractAddress({ from: tokenDeployer, nonce: 0n }),
      dai: getContractAddress({ from: tokenDeployer, nonce: 1n }),
    },
    contracts: Object.fromEntries(
      contracts.map((c, nonce) => [c.name, getContractAddress({ from: owner, nonce: BigInt(nonce) })]),
    ),
  };
}

/**
 * What every real chain carries at a fixed address: Multicall3 (facilitators diagnose a failed simulation through
 * it), the batch-settlement escrow with its ERC-3009 deposit collector, Permit2 and x402's exact and upto proxies. None has
 * constructor state, so its runtime code alone, placed where @x402/evm expects it, is the whole deployment.
 */
export async function placeChainContracts(rpcUrl: string) {
  const [multicall, settlement, collector, permit2, uptoProxy, exactProxy] = await Promise.all([
    compileContract("Multicall3"),
    compileContract("BatchSettlement"),
    compileContract("Erc3009DepositCollector"),
    compileContract("Permit2"),
    compileContract("X402UptoPermit2Proxy"),
    compileContract("X402ExactPermit2Proxy"),
  ]);
  const testClient = createTestClient({ mode: "anvil", transport: http(rpcUrl) });
  await Promise.all([
    testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall.deployedBytecode }),
    testClient.setCode({ address: BATCH_SETTLEMENT_ADDRESS, bytecode: settlement.deployedBytecode }),
    testClient.setCode({ address: ERC3009_DEPOSIT_COLLECTOR_ADDRESS, bytecode: collector.deployedBytecode }),
    testClient.setCode({ address: PERMIT2_ADDRESS, bytecode: permit2.deployedBytecode }),
    testClient.setCode({ address: x402UptoPermit2ProxyAddress, bytecode: uptoProxy.deployedBytecode }),
    testClient.setCode({ address: x402ExactPermit2ProxyAddress, bytecode: exactProxy.deployedBytecode }),
  ]);
}

/**
 * Starts anvil, deploys TestUSDC and TestDAI, gives every dev account 1,000,000 of each, has the dev payer approve
 * Permit2 for its DAI (the one-time step a wallet takes before paying with a token without EIP-3009), and deploys
 * the contracts the families asked for.
 */
export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const needs = options.contracts ?? [];
  const starting = Promise.allSettled([
    startAnvil({
      port: options.port,
      blockTime: options.blockTime,
      mixedMining: options.mixedMining,
      chainId: DEVNET_CHAIN_ID,
      mnemonic: DEV_MNEMONIC,
    }),
    Promise.all([
      compileTestUsdc(),
      Promise.all(needs.map((need) => compileContract(need.name, need.dir))),
      compileContract("TestDAI"),
    ]),
  ]);
  // Key derivation is CPU work; it overlaps anvil's boot.
  const accounts = Array.from({ length: DEV_ACCOUNT_COUNT }, (_, index) => devAccount(index));
  const [relayer, payTo, payer, ...others] = accounts;
  const [anvilStart, compiled] = await starting;
  if (anvilStart.status === "rejected") throw anvilStart.reason;
  const anvil = anvilStart.value;
  try {
    if (compiled.status === "rejected") throw compiled.reason;
    const [artifact, artifacts, daiArtifact] = compiled.value;
    // Different deployers, so the tokens and the families' contracts go out side by side without sharing nonces.
    const [[token, dai], contracts] = await Promise.all([
      deployAndFund(anvil, artifact.bytecode, daiArtifact, accounts),
      deployOwned(anvil, needs, artifacts, payTo),
    ]);
    const planned = plannedDevnet([]).tokens;
    if (token !== planned.usdc || dai !== planned.dai)
      throw new Error(`the devnet's tokens stand at ${token} and ${dai}, not ${planned.usdc} and ${planned.dai}`);
    await placeChainContracts(anvil.rpcUrl);
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: DEVNET_CHAIN_ID,
      network: "eip155:84532",
      v1Network: "base-sepolia",
      usdc: { address: token, name: "USDC", version: "2", decimals: 6 },
      dai: { address: dai, name: "Test DAI", decimals: 18 },
      contracts,
      batchSettlement: { address: BATCH_SETTLEMENT_ADDRESS, depositCollector: ERC3009_DEPOSIT_COLLECTOR_ADDRESS },
      upto: { permit2: PERMIT2_ADDRESS, proxy: x402UptoPermit2ProxyAddress },
      exactPermit2Proxy: x402ExactPermit2ProxyAddress,
      accounts: { relayer, payTo, payer, others },
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

async function deployAndFund(
  anvil: Anvil,
  bytecode: Hex,
  daiArtifact: CompiledContract,
  accounts: DevAccount[],
): Promise<[Address, Address]> {
  const chain = devnetChain(anvil.rpcUrl);
  const transport = http(anvil.rpcUrl);
  const publicClient = createPublicClient({ chain, transport });
  const deployer = privateKeyToAccount(accounts[0].privateKey);
  const wallet = createWalletClient({ chain, transport, account: deployer });

  const deployHash = await wallet.deployContract({ abi: testUsdcAbi, bytecode, args: ["USDC", "2"] });
  const [deployReceipt] = await waitForSuccess(publicClient, anvil, [deployHash], "TestUSDC deployment");
  if (!deployReceipt.contractAddress) throw new Error("TestUSDC deployment created no contract");
  const token = getAddress(deployReceipt.contractAddress);
  const daiHash = await wallet.deployContract({
    abi: daiArtifact.abi,
    bytecode: daiArtifact.bytecode,
    args: [accounts.map((a) => a.address), DEV_DAI_PER_ACCOUNT],
  });

  // One after another: sent together, a later nonce can reach anvil first and wait in its pool for a block
  // that never comes. Each send returns as soon as anvil has the transaction, so this stays fast.
  const mintHashes: Hash[] = [];
  for (const account of accounts) {
    mintHashes.push(
      await wallet.writeContract({
        address: token,
        abi: testUsdcAbi,
        functionName: "mint",
        args: [account.address, DEV_USDC_PER_ACCOUNT],
      }),
    );
  }
  const [daiReceipt] = await waitForSuccess(publicClient, anvil, [daiHash], "TestDAI deployment");
  if (!daiReceipt.contractAddress) throw new Error("TestDAI deployment created no contract");
  const dai = getAddress(daiReceipt.contractAddress);
  // The dev payer has taken the one-time step: `npm run pay -- <path> --token dai` works from a plain `npm start`.
  const payer = createWalletClient({ chain, transport, account: privateKeyToAccount(accounts[2].privateKey) });
  const approveHash = await payer.writeContract({
    address: dai,
    abi: testUsdcAbi,
    functionName: "approve",
    args: [PERMIT2_ADDRESS, maxUint256],
  });
  await waitForSuccess(publicClient, anvil, [...mintHashes, approveHash], "TestUSDC mint and Permit2 approval");
  return [token, dai];
}

/** The families' contracts, deployed by `owner` one after another (one sender, so its nonces stay in order). */
async function deployOwned(
  anvil: Anvil,
  needs: readonly DevnetContract[],
  artifacts: CompiledContract[],
  owner: DevAccount,
): Promise<Record<string, Address>> {
  const chain = devnetChain(anvil.rpcUrl);
  const transport = http(anvil.rpcUrl);
  const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(owner.privateKey) });
  const reader = createPublicClient({ chain, transport });
  const deployed: Record<string, Address> = {};
  for (const [i, need] of needs.entries()) {
    const hash = await wallet.deployContract({
      abi: artifacts[i].abi,
      bytecode: artifacts[i].bytecode,
      args: need.args(owner.address) as unknown[],
    });
    const [receipt] = await waitForSuccess(reader, anvil, [hash], `${need.name} deployment`);
    if (!receipt.contractAddress) throw new Error(`${need.name} deployment created no contract`);
    deployed[need.name] = getAddress(receipt.contractAddress);
  }
  return deployed;
}

type ReceiptClient = Pick<ReturnType<typeof createPublicClient>, "getTransactionReceipt">;

// Plain polling instead of viem's waitForTransactionReceipt: its block watcher swallows RPC errors, so
// a dead anvil would look like a 180 s hang rather than an error.
async function waitForSuccess(client: ReceiptClient, anvil: Anvil, hashes: Hash[], what: string) {
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
  const receipts = new Map<Hash, TransactionReceipt>();
  while (receipts.size < hashes.length) {
    if (anvil.process.exitCode !== null || anvil.process.signalCode !== null) {
      throw new Error(
        `anvil exited while waiting for ${what} (code ${anvil.process.exitCode}, signal ${anvil.process.signalCode})`,
      );
    }
    if (Date.now() > deadline) throw new Error(`${what} not mined within ${RECEIPT_TIMEOUT_MS} ms`);
    for (const hash of hashes.filter((h) => !receipts.has(h))) {
      const receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
        if (error instanceof TransactionReceiptNotFoundError) return undefined;
        throw error;
      });
      if (receipt) receipts.set(hash, receipt);
    }
    if (receipts.size < hashes.length) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const reverted = hashes.find((hash) => receipts.get(hash)?.status !== "success");
  if (reverted) throw new Error(`${what} reverted (tx ${reverted})`);
  return hashes.map((hash) => receipts.get(hash)!);
}

/** Reads a TestUSDC (or any ERC-20) balance in atomic units. */
export async function usdcBalance(rpcUrl: string, token: Address, address: Address): Promise<bigint> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  return client.readContract({ address: token, abi: testUsdcAbi, functionName: "balanceOf", args: [address] });
}
