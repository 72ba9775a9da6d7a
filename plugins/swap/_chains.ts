import type { Address } from "viem";

/** The EVM chains /v1/swap accepts (the spec's list), with what each aggregator calls them. */
export const chains = {
  1: {
    name: "Ethereum",
    blockSeconds: 12,
    kyber: "ethereum",
    llama: "ethereum",
    native: "ETH",
    nativePrice: "coingecko:ethereum",
  },
  10: {
    name: "Optimism",
    blockSeconds: 2,
    kyber: "optimism",
    llama: "optimism",
    native: "ETH",
    nativePrice: "coingecko:ethereum",
  },
  56: {
    name: "BNB Chain",
    blockSeconds: 3,
    kyber: "bsc",
    llama: "bsc",
    native: "BNB",
    nativePrice: "coingecko:binancecoin",
  },
  137: {
    name: "Polygon",
    blockSeconds: 2,
    kyber: "polygon",
    llama: "polygon",
    native: "POL",
    nativePrice: "coingecko:polygon-ecosystem-token",
  },
  8453: {
    name: "Base",
    blockSeconds: 2,
    kyber: "base",
    llama: "base",
    native: "ETH",
    nativePrice: "coingecko:ethereum",
  },
  42161: {
    name: "Arbitrum",
    blockSeconds: 1,
    kyber: "arbitrum",
    llama: "arbitrum",
    native: "ETH",
    nativePrice: "coingecko:ethereum",
  },
  43114: {
    name: "Avalanche",
    blockSeconds: 2,
    kyber: "avalanche",
    llama: "avax",
    native: "AVAX",
    nativePrice: "coingecko:avalanche-2",
  },
} as const;

export type ChainId = keyof typeof chains;
export const chainIds = Object.keys(chains).map(Number) as ChainId[];
export const chainIdList = chainIds.join(", ");

/** The spec's way of naming the native coin; Relay, LI.FI, Across and deBridge take it as is. */
export const zeroAddress: Address = "0x0000000000000000000000000000000000000000";
/** KyberSwap's (and most DEX aggregators') placeholder for the native coin. */
export const eeeeAddress: Address = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";

export const isNative = (token: string) =>
  token.toLowerCase() === zeroAddress || token.toLowerCase() === eeeeAddress.toLowerCase();

export function chainOf(id: number) {
  return chains[id as ChainId];
}

/** Native coin and USDC per chain: the widget's token menu (addresses from each issuer's published list). */
export const widgetTokens: Record<ChainId, { symbol: string; address: Address; decimals: number }[]> = {
  1: [
    { symbol: "ETH", address: zeroAddress, decimals: 18 },
    { symbol: "USDC", address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", decimals: 6 },
  ],
  10: [
    { symbol: "ETH", address: zeroAddress, decimals: 18 },
    { symbol: "USDC", address: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", decimals: 6 },
  ],
  56: [
    { symbol: "BNB", address: zeroAddress, decimals: 18 },
    { symbol: "USDC", address: "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", decimals: 18 },
  ],
  137: [
    { symbol: "POL", address: zeroAddress, decimals: 18 },
    { symbol: "USDC", address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", decimals: 6 },
  ],
  8453: [
    { symbol: "ETH", address: zeroAddress, decimals: 18 },
    { symbol: "USDC", address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", decimals: 6 },
  ],
  42161: [
    { symbol: "ETH", address: zeroAddress, decimals: 18 },
    { symbol: "USDC", address: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", decimals: 6 },
  ],
  43114: [
    { symbol: "AVAX", address: zeroAddress, decimals: 18 },
    { symbol: "USDC", address: "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", decimals: 6 },
  ],
};
