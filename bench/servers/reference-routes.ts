import { x402ResourceServer } from "@x402/core/server";
import type { RoutesConfig } from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { referenceFacilitator } from "./reference-facilitator.ts";

const NETWORK = "eip155:84532";

/**
 * The resource server and the one protected route of the reference servers, from the environment:
 * - REFERENCE_MODE=unpaid-only: price "$0.001" (the network's default USDC); the facilitator never reaches
 *   a chain on the 402 path, so its RPC URL is a placeholder.
 * - otherwise: the devnet token the bench process deployed, settling through its RPC.
 */
export function referencePaymentSetup() {
  const unpaidOnly = process.env.REFERENCE_MODE === "unpaid-only";
  const env = (name: string, fallback?: string) => {
    const value = process.env[name] ?? fallback;
    if (!value) throw new Error(`${name} must be set by the bench runner`);
    return value;
  };
  const payTo = env(
    "DEVNET_PAY_TO",
    unpaidOnly ? "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" : undefined,
  ) as `0x${string}`;
  const facilitator = referenceFacilitator({
    rpcUrl: env("DEVNET_RPC_URL", unpaidOnly ? "http://127.0.0.1:9" : undefined),
    chainId: 84532,
    relayerKey: env("REFERENCE_RELAYER_KEY", unpaidOnly ? `0x${"11".repeat(32)}` : undefined) as `0x${string}`,
  });
  const price = unpaidOnly
    ? "$0.001"
    : {
        amount: "1000",
        asset: env("DEVNET_USDC"),
        extra: { name: env("DEVNET_USDC_NAME"), version: env("DEVNET_USDC_VERSION") },
      };
  const routes: RoutesConfig = {
    "GET /v1/hash": {
      accepts: { scheme: "exact", network: NETWORK, payTo, price },
      description: "Hash text with sha256",
      mimeType: "application/json",
    },
  };
  const server = new x402ResourceServer(facilitator).register(NETWORK, new ExactEvmScheme());
  return { routes, server };
}
