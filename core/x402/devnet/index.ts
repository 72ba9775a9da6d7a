import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  toHex,
  type Address,
  type Chain,
  type Hash,
  type Hex,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { startAnvil } from "./anvil.ts";
import { compileContract, compileTestUsdc, testUsdcAbi } from "./compile.ts";

export { testUsdcAbi } from "./compile.ts";
export { startAnvil } from "./anvil.ts";

/** Anvil's well-known mnemonic; its keys are public, so nothing here ever guards real money. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";
export const DEV_ACCOUNT_COUNT = 10;
export const DEV_USDC_PER_ACCOUNT = 1_000_000n * 10n ** 6n;

export type DevAccount = { address: Address; privateKey: Hex };

export type DevnetOptions = { port?: number; blockTime?: number };

export type Devnet = {
  rpcUrl: string;
  chainId: number;
  network: "eip155:84532";
  v1Network: "base-sepolia";
  usdc: { address: Address; name: "USDC"; version: "2"; decimals: 6 };
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

export function devAccount(addressIndex: number): DevAccount {
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex });
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
  });
}

/** Starts anvil, deploys TestUSDC and gives every dev account 1,000,000 USDC. */
export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const [anvil, artifact, multicall] = await Promise.all([
    startAnvil({ ...options, chainId: DEVNET_CHAIN_ID, mnemonic: DEV_MNEMONIC }),
    compileTestUsdc(),
    compileContract("Multicall3"),
  ]);
  try {
    const accounts = Array.from({ length: DEV_ACCOUNT_COUNT }, (_, index) => devAccount(index));
    const [relayer, payTo, payer, ...others] = accounts;
    const token = await deployAndFund(anvil.rpcUrl, artifact.bytecode, accounts);
    // Facilitators diagnose a failed simulation through Multicall3, which every real chain carries.
    await createPublicClient({ transport: http(anvil.rpcUrl) }).request({
      method: "anvil_setCode" as any,
      params: [MULTICALL3_ADDRESS, multicall.deployedBytecode] as any,
    });
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: DEVNET_CHAIN_ID,
      network: "eip155:84532",
      v1Network: "base-sepolia",
      usdc: { address: token, name: "USDC", version: "2", decimals: 6 },
      accounts: { relayer, payTo, payer, others },
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

async function deployAndFund(rpcUrl: string, bytecode: Hex, accounts: DevAccount[]): Promise<Address> {
  const chain = devnetChain(rpcUrl);
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
  const deployer = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 0 });
  const wallet = createWalletClient({ chain, transport, account: deployer });

  const deployHash = await wallet.deployContract({ abi: testUsdcAbi, bytecode, args: ["USDC", "2"] });
  const deployReceipt = await waitForSuccess(publicClient, deployHash, "TestUSDC deployment");
  if (!deployReceipt.contractAddress) throw new Error("TestUSDC deployment created no contract");
  const token = getAddress(deployReceipt.contractAddress);

  // Explicit nonces let all mints go out at once instead of one receipt at a time.
  const firstNonce = await publicClient.getTransactionCount({ address: deployer.address, blockTag: "pending" });
  const mintHashes = await Promise.all(
    accounts.map((account, index) =>
      wallet.writeContract({
        address: token,
        abi: testUsdcAbi,
        functionName: "mint",
        args: [account.address, DEV_USDC_PER_ACCOUNT],
        nonce: firstNonce + index,
      }),
    ),
  );
  await Promise.all(mintHashes.map((hash) => waitForSuccess(publicClient, hash, "TestUSDC mint")));
  return token;
}

type ReceiptClient = Pick<ReturnType<typeof createPublicClient>, "waitForTransactionReceipt">;

async function waitForSuccess(client: ReceiptClient, hash: Hash, what: string) {
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`${what} reverted (tx ${hash})`);
  return receipt;
}

/** Reads a TestUSDC (or any ERC-20) balance in atomic units. */
export async function usdcBalance(rpcUrl: string, token: Address, address: Address): Promise<bigint> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  return client.readContract({ address: token, abi: testUsdcAbi, functionName: "balanceOf", args: [address] });
}
