/** The shared devnet the bench process started, as it hands it to the paid servers through the environment. */
export function devnetFromEnv() {
  const need = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} must be set by the bench runner`);
    return value;
  };
  return {
    rpcUrl: need("DEVNET_RPC_URL"),
    chainId: Number(need("DEVNET_CHAIN_ID")),
    asset: need("DEVNET_USDC") as `0x${string}`,
    assetName: need("DEVNET_USDC_NAME"),
    assetVersion: need("DEVNET_USDC_VERSION"),
    payTo: need("DEVNET_PAY_TO") as `0x${string}`,
    payToKey: need("DEVNET_PAY_TO_KEY") as `0x${string}`,
    relayerKey: need("DEVNET_RELAYER_KEY") as `0x${string}`,
  };
}
