import { startDevnet, usdcBalance, type Devnet } from "../../core/x402/devnet/index.ts";

export { startDevnet, type Devnet };

/** What a paid server child needs to know about the bench's one devnet (see bench/servers/devnet-env.ts). */
export function devnetEnv(devnet: Devnet): Record<string, string> {
  return {
    DEVNET_RPC_URL: devnet.rpcUrl,
    DEVNET_CHAIN_ID: String(devnet.chainId),
    DEVNET_USDC: devnet.usdc.address,
    DEVNET_USDC_NAME: devnet.usdc.name,
    DEVNET_USDC_VERSION: devnet.usdc.version,
    DEVNET_PAY_TO: devnet.accounts.payTo.address,
    DEVNET_PAY_TO_KEY: devnet.accounts.payTo.privateKey,
    DEVNET_RELAYER_KEY: devnet.accounts.relayer.privateKey,
  };
}

/** The payee's test USDC balance, to count the transfers that really landed. */
export const payToBalance = (devnet: Devnet) =>
  usdcBalance(devnet.rpcUrl, devnet.usdc.address, devnet.accounts.payTo.address);
