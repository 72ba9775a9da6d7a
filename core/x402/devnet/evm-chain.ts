import { createPublicClient, createWalletClient, getAddress, http, type Address, type Hash } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startAnvil } from "./anvil.ts";
import { compileTestUsdc, testUsdcAbi } from "./compile.ts";
import {
  DEV_ACCOUNT_COUNT,
  DEV_MNEMONIC,
  DEV_USDC_PER_ACCOUNT,
  devAccount,
  devnetChain,
  placeChainContracts,
  type DevAccount,
} from "./index.ts";

/**
 * A further local EVM chain for the devnet: its own anvil with another chain id and its own TestUSDC, the
 * same dev accounts (each holding 1,000,000 of this chain's test USDC). A client whose money is only here
 * pays the same route as one on the first chain.
 */
export interface EvmChain {
  rpcUrl: string;
  chainId: number;
  network: `eip155:${number}`;
  usdc: { address: Address; name: "USDC"; version: "2"; decimals: 6 };
  accounts: { relayer: DevAccount; payTo: DevAccount; payer: DevAccount; others: DevAccount[] };
  stop(): Promise<void>;
}

/** Polygon Amoy's chain id: a network x402-fetch 1.x knows by name (`polygon-amoy`), so v1 clients are offered it too. */
export const SECOND_CHAIN_ID = 80002;

export async function startEvmChain(chainId = SECOND_CHAIN_ID): Promise<EvmChain> {
  const [anvil, artifact] = await Promise.all([startAnvil({ chainId, mnemonic: DEV_MNEMONIC }), compileTestUsdc()]);
  try {
    const accounts = Array.from({ length: DEV_ACCOUNT_COUNT }, (_, i) => devAccount(i));
    const chain = devnetChain(anvil.rpcUrl, chainId);
    const transport = http(anvil.rpcUrl);
    const reader = createPublicClient({ chain, transport });
    const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(accounts[0].privateKey) });
    const deployed = await reader.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi: testUsdcAbi, bytecode: artifact.bytecode, args: ["USDC", "2"] }),
      pollingInterval: 20,
    });
    if (deployed.status !== "success" || !deployed.contractAddress)
      throw new Error("TestUSDC deployment failed on the second devnet chain");
    const token = getAddress(deployed.contractAddress);
    // One after another: anvil mines each at once, and nonces stay in order.
    const mints: Hash[] = [];
    for (const a of accounts)
      mints.push(
        await wallet.writeContract({
          address: token,
          abi: testUsdcAbi,
          functionName: "mint",
          args: [a.address, DEV_USDC_PER_ACCOUNT],
        }),
      );
    for (const hash of mints) {
      const r = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (r.status !== "success") throw new Error(`TestUSDC mint reverted on the second devnet chain (tx ${hash})`);
    }
    await placeChainContracts(anvil.rpcUrl);
    const [relayer, payTo, payer, ...others] = accounts;
    return {
      rpcUrl: anvil.rpcUrl,
      chainId,
      network: `eip155:${chainId}`,
      usdc: { address: token, name: "USDC", version: "2", decimals: 6 },
      accounts: { relayer, payTo, payer, others },
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
