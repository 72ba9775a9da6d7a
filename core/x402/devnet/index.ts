import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
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

export { testUsdcAbi } from "./compile.ts";
export { startAnvil } from "./anvil.ts";

/** Anvil's well-known mnemonic; its keys are public, so nothing here ever guards real money. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";
export const DEV_ACCOUNT_COUNT = 10;
export const DEV_USDC_PER_ACCOUNT = 1_000_000n * 10n ** 6n;

export type DevAccount = { address: Address; privateKey: Hex };

export type DevnetOptions = { port?: number; blockTime?: number; mixedMining?: boolean };

export type Devnet = {
  rpcUrl: string;
  chainId: number;
  network: "eip155:84532";
  v1Network: "base-sepolia";
  usdc: { address: Address; name: "USDC"; version: "2"; decimals: 6 };
  /** The duel family's escrow (plugins/duel/contracts), owned by payTo, which also takes its rake. */
  duelEscrow: Address;
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
const DUEL_CONTRACTS = new URL("../../../plugins/duel/contracts/", import.meta.url);
/** 3% rake, stakes from 0.0001 to 10 ETH, a day to find an opponent, 10 minutes for each later phase. */
const DUEL_TERMS = [300, 10n ** 14n, 10n * 10n ** 18n, 86_400n, 600n] as const;

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

/** Starts anvil, deploys TestUSDC and gives every dev account 1,000,000 USDC. */
export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const starting = Promise.allSettled([
    startAnvil({ ...options, chainId: DEVNET_CHAIN_ID, mnemonic: DEV_MNEMONIC }),
    Promise.all([compileTestUsdc(), compileContract("Multicall3"), compileContract("DuelEscrow", DUEL_CONTRACTS)]),
  ]);
  // Key derivation is CPU work; it overlaps anvil's boot.
  const accounts = Array.from({ length: DEV_ACCOUNT_COUNT }, (_, index) => devAccount(index));
  const [relayer, payTo, payer, ...others] = accounts;
  const [anvilStart, compiled] = await starting;
  if (anvilStart.status === "rejected") throw anvilStart.reason;
  const anvil = anvilStart.value;
  try {
    if (compiled.status === "rejected") throw compiled.reason;
    const [artifact, multicall, duel] = compiled.value;
    // Different deployers, so the two deployments go out side by side without sharing nonces.
    const [token, duelEscrow] = await Promise.all([deployAndFund(anvil, artifact.bytecode, accounts), deployDuelEscrow(anvil, duel, payTo)]);
    // Facilitators diagnose a failed simulation through Multicall3, which every real chain carries.
    await createTestClient({ mode: "anvil", transport: http(anvil.rpcUrl) }).setCode({
      address: MULTICALL3_ADDRESS,
      bytecode: multicall.deployedBytecode,
    });
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: DEVNET_CHAIN_ID,
      network: "eip155:84532",
      v1Network: "base-sepolia",
      usdc: { address: token, name: "USDC", version: "2", decimals: 6 },
      duelEscrow,
      accounts: { relayer, payTo, payer, others },
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

async function deployAndFund(anvil: Anvil, bytecode: Hex, accounts: DevAccount[]): Promise<Address> {
  const chain = devnetChain(anvil.rpcUrl);
  const transport = http(anvil.rpcUrl);
  const publicClient = createPublicClient({ chain, transport });
  const deployer = privateKeyToAccount(accounts[0].privateKey);
  const wallet = createWalletClient({ chain, transport, account: deployer });

  const deployHash = await wallet.deployContract({ abi: testUsdcAbi, bytecode, args: ["USDC", "2"] });
  const [deployReceipt] = await waitForSuccess(publicClient, anvil, [deployHash], "TestUSDC deployment");
  if (!deployReceipt.contractAddress) throw new Error("TestUSDC deployment created no contract");
  const token = getAddress(deployReceipt.contractAddress);

  // One after another: sent together, a later nonce can reach anvil first and wait in its pool for a block
  // that never comes. Each send returns as soon as anvil has the transaction, so this stays fast.
  const mintHashes: Hash[] = [];
  for (const account of accounts) {
    mintHashes.push(await wallet.writeContract({ address: token, abi: testUsdcAbi, functionName: "mint", args: [account.address, DEV_USDC_PER_ACCOUNT] }));
  }
  await waitForSuccess(publicClient, anvil, mintHashes, "TestUSDC mint");
  return token;
}

async function deployDuelEscrow(anvil: Anvil, artifact: CompiledContract, owner: DevAccount): Promise<Address> {
  const chain = devnetChain(anvil.rpcUrl);
  const transport = http(anvil.rpcUrl);
  const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(owner.privateKey) });
  const [rakeBps, minStake, maxStake, joinWindow, actWindow] = DUEL_TERMS;
  const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [rakeBps, owner.address, minStake, maxStake, joinWindow, actWindow] });
  const [receipt] = await waitForSuccess(createPublicClient({ chain, transport }), anvil, [hash], "DuelEscrow deployment");
  if (!receipt.contractAddress) throw new Error("DuelEscrow deployment created no contract");
  return getAddress(receipt.contractAddress);
}

type ReceiptClient = Pick<ReturnType<typeof createPublicClient>, "getTransactionReceipt">;

// Plain polling instead of viem's waitForTransactionReceipt: its block watcher swallows RPC errors, so
// a dead anvil would look like a 180 s hang rather than an error.
async function waitForSuccess(client: ReceiptClient, anvil: Anvil, hashes: Hash[], what: string) {
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
  const receipts = new Map<Hash, TransactionReceipt>();
  while (receipts.size < hashes.length) {
    if (anvil.process.exitCode !== null || anvil.process.signalCode !== null) {
      throw new Error(`anvil exited while waiting for ${what} (code ${anvil.process.exitCode}, signal ${anvil.process.signalCode})`);
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
