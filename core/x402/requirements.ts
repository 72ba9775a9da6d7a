import type { Endpoint } from "../endpoint.ts";
import { toAtomicAmount } from "../shared.ts";

/** One way to pay: a token on a network, as configured (Base USDC in production, the devnet token by default). */
export interface PaymentOption {
  /** CAIP-2 id, e.g. `eip155:8453`. */
  network: `eip155:${number}`;
  asset: `0x${string}`;
  payTo: `0x${string}`;
  decimals: number;
  /** EIP-712 domain of the token. */
  extra: { name: string; version: string };
  maxTimeoutSeconds: number;
}

/** v2 `PaymentRequirements`: exactly the seven fields the spec names. */
export interface RequirementsV2 {
  scheme: "exact";
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

/** v1 `PaymentRequirements`, with every field x402-fetch 1.x insists on. */
export interface RequirementsV1 {
  scheme: "exact";
  network: string;
  maxAmountRequired: string;
  resource: string;
  description: string;
  mimeType: string;
  payTo: string;
  maxTimeoutSeconds: number;
  asset: string;
  extra: { name: string; version: string };
}

export interface RouteRequirements {
  amount: string;
  resource: { url: string; description: string; mimeType: string };
  v2: RequirementsV2[];
  v1: RequirementsV1[];
}

/** v1 clients know networks by name; a network without a name is offered to v2 clients only. */
const v1Names: Record<string, string> = {
  "eip155:8453": "base",
  "eip155:84532": "base-sepolia",
  "eip155:137": "polygon",
  "eip155:80002": "polygon-amoy",
  "eip155:43114": "avalanche",
  "eip155:43113": "avalanche-fuji",
  "eip155:1329": "sei",
  "eip155:1328": "sei-testnet",
  "eip155:4689": "iotex",
  "eip155:2741": "abstract",
  "eip155:11124": "abstract-testnet",
  "eip155:3338": "peaq",
  "eip155:1514": "story",
  "eip155:41923": "educhain",
};
export const v1NameOf = (network: string) => v1Names[network];
export const networkOfV1Name = (name: string) => Object.keys(v1Names).find((k) => v1Names[k] === name);

export function buildRequirements(endpoint: Endpoint, options: PaymentOption[], baseUrl: string, price: string = endpoint.price): RouteRequirements {
  const resource = { url: baseUrl + endpoint.path, description: endpoint.summary, mimeType: "application/json" };
  const v2 = options.map((o) => ({
    scheme: "exact" as const,
    network: o.network,
    amount: toAtomicAmount(price, o.decimals),
    asset: o.asset,
    payTo: o.payTo,
    maxTimeoutSeconds: o.maxTimeoutSeconds,
    extra: o.extra,
  }));
  const v1 = options.flatMap((o, i) => {
    const network = v1NameOf(o.network);
    if (!network) return [];
    const { amount, ...rest } = v2[i];
    return [{ ...rest, network, maxAmountRequired: amount, resource: resource.url, description: resource.description, mimeType: resource.mimeType }];
  });
  return { amount: v2[0]?.amount ?? "0", resource, v2, v1 };
}
