import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createPublicClient, createWalletClient, getAddress, http, type Hash } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compileContract, testUsdcAbi } from "../../core/x402/devnet/compile.ts";
import {
  DEV_ACCOUNT_COUNT,
  DEV_MNEMONIC,
  devAccount,
  devnetChain,
  placeChainContracts,
  startAnvil,
} from "../../core/x402/devnet/index.ts";
import type { EvmChain } from "../../core/x402/devnet/evm-chain.ts";

/** TestUSDC.sol with another `decimals`: the same EIP-3009 and EIP-2612 token, compiled from the devnet's own source. */
async function compileTokenWithDecimals(decimals: number) {
  const source = await readFile(new URL("../../core/x402/devnet/TestUSDC.sol", import.meta.url), "utf8");
  const constant = "uint8 public constant decimals = 6;";
  if (!source.includes(constant)) throw new Error(`TestUSDC.sol no longer declares "${constant}"`);
  const dir = await mkdtemp(join(tmpdir(), "decimals-token-"));
  await writeFile(join(dir, "TestUSDC.sol"), source.replace(constant, `uint8 public constant decimals = ${decimals};`));
  return compileContract("TestUSDC", pathToFileURL(`${dir}/`));
}

/**
 * A local EVM chain like startEvmChain's, whose test token has `decimals` decimals (an `X402_<NAME>_DECIMALS=18`
 * option): every dev account holds a million whole tokens, and the chain carries the escrow, Permit2 and the upto
 * proxy. A chain id without an x402 v1 name, so it is offered to v2 clients only.
 */
export async function startDecimalsChain(decimals: number, chainId = 31_337): Promise<EvmChain> {
  const [anvil, artifact] = await Promise.all([
    startAnvil({ chainId, mnemonic: DEV_MNEMONIC }),
    compileTokenWithDecimals(decimals),
  ]);
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
    if (deployed.status !== "success" || !deployed.contractAddress) throw new Error("token deployment failed");
    const token = getAddress(deployed.contractAddress);
    const mints: Hash[] = [];
    for (const a of accounts)
      mints.push(
        await wallet.writeContract({
          address: token,
          abi: testUsdcAbi,
          functionName: "mint",
          args: [a.address, 1_000_000n * 10n ** BigInt(decimals)],
        }),
      );
    for (const hash of mints) await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    await placeChainContracts(anvil.rpcUrl);
    const [relayer, payTo, payer, ...others] = accounts;
    return {
      rpcUrl: anvil.rpcUrl,
      chainId,
      network: `eip155:${chainId}`,
      usdc: { address: token, name: "USDC", version: "2", decimals } as unknown as EvmChain["usdc"],
      accounts: { relayer, payTo, payer, others },
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
