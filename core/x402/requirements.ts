import type { Endpoint } from "../endpoint.ts";
import { toAtomicAmount } from "../shared.ts";

/**
 * One way to pay: a token on a network, as configured (options.ts: Base USDC by default, any number of
 * networks; the devnet's tokens when nothing is configured).
 */
export interface PaymentOption {
  /** CAIP-2 id, e.g. `eip155:8453` or `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
  network: string;
  asset: string;
  payTo: string;
  decimals: number;
  /**
   * EVM: the token's EIP-712 domain (`name`, `version`), and `assetTransferMethod: "permit2"` for a token paid
   * through Permit2 (its domain then only when it has EIP-2612). Solana: the facilitator's `feePayer`.
   */
  extra: Record<string, string>;
  maxTimeoutSeconds: number;
  /** Set when the option also takes `batch-settlement` vouchers (EVM): who authorizes claims, the withdraw delay. */
  batch?: { receiverAuthorizer: string; withdrawDelay: number };
  /** Set when the option also takes `upto` Permit2 authorizations (EVM) on pay-as-used routes: who settles them. */
  upto?: { facilitatorAddress: string };
}

/** The two families of networks the rail takes payments on. */
export const familyOf = (network: string): "evm" | "svm" | undefined =>
  network.startsWith("eip155:") ? "evm" : network.startsWith("solana:") ? "svm" : undefined;

/** v2 `PaymentRequirements`: exactly the seven fields the spec names. */
export interface RequirementsV2 {
  scheme: "exact";
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: Record<string, string>;
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
  extra: Record<string, string>;
}

/** A `batch-settlement` requirement, as @x402/evm's server scheme writes it (batch-settlement.test.ts compares). */
export interface BatchRequirement {
  scheme: "batch-settlement";
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string; receiverAuthorizer: string; withdrawDelay: number; minDeposit: string };
}

/** An `upto` requirement, as @x402/evm's server scheme writes it (upto.test.ts compares): `amount` is the most it settles. */
export interface UptoRequirement {
  scheme: "upto";
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string; assetTransferMethod: "permit2"; facilitatorAddress: string };
}

/**
 * The deposit the 402 suggests: ten calls, and at least one token (one dollar of USDC). A deposit is an on-chain
 * transaction; ten $0.001 calls per deposit would pay gas every ten calls, which vouchers exist to avoid.
 */
const MIN_DEPOSIT_CALLS = 10n;
export const minDepositOf = (amount: string, decimals: number) => {
  const calls = BigInt(amount) * MIN_DEPOSIT_CALLS;
  const oneToken = 10n ** BigInt(decimals);
  return String(calls > oneToken ? calls : oneToken);
};

export interface RouteRequirements {
  /** The price in USDC atomic units (six decimals): what a credit is charged or given back. */
  amount: string;
  resource: { url: string; description: string; mimeType: string };
  v2: RequirementsV2[];
  v1: RequirementsV1[];
  batch: BatchRequirement[];
  /** Offered only where the endpoint pays as used. */
  upto: UptoRequirement[];
}

/**
 * v1 clients know networks by name: the 17 names x402-fetch 1.x parses (one entry it cannot parse fails the
 * whole 402 for it). A network without a name (Arbitrum, Optimism) is offered to v2 clients only.
 */
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
  "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": "solana",
  "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1": "solana-devnet",
};
export const v1NameOf = (network: string) => v1Names[network];

const labels: Record<string, string> = {
  "eip155:8453": "Base",
  "eip155:84532": "Base Sepolia",
  "eip155:137": "Polygon",
  "eip155:80002": "Polygon Amoy",
  "eip155:42161": "Arbitrum",
  "eip155:10": "Optimism",
  "eip155:43114": "Avalanche",
  "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": "Solana",
  "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1": "Solana devnet",
};

/** "Base (eip155:8453)": a network as people and agents read it in the discovery documents. */
export const networkLabel = (network: string) => (labels[network] ? `${labels[network]} (${network})` : network);

/** Every option in one line of prose, for the discovery documents. */
export const optionsLine = (options: PaymentOption[]) =>
  `Pay on any of: ${options.map((o) => `${networkLabel(o.network)}, token ${o.asset}`).join("; ")}.`;
export const networkOfV1Name = (name: string) => Object.keys(v1Names).find((k) => v1Names[k] === name);

export function buildRequirements(
  endpoint: Endpoint,
  options: PaymentOption[],
  baseUrl: string,
  price: string = endpoint.price,
): RouteRequirements {
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
    // x402 v1's exact is EIP-3009 only: a token paid through Permit2 is offered to v2 clients.
    if (!network || o.extra.assetTransferMethod) return [];
    const { amount, ...rest } = v2[i];
    return [
      {
        ...rest,
        network,
        maxAmountRequired: amount,
        resource: resource.url,
        description: resource.description,
        mimeType: resource.mimeType,
      },
    ];
  });
  const batch = options.flatMap((o, i) =>
    o.batch
      ? [
          {
            ...v2[i],
            scheme: "batch-settlement" as const,
            extra: {
              name: o.extra.name,
              version: o.extra.version,
              ...o.batch,
              minDeposit: minDepositOf(v2[i].amount, o.decimals),
            },
          },
        ]
      : [],
  );
  const upto = options.flatMap((o, i) =>
    o.upto && endpoint.paysAsUsed
      ? [
          {
            ...v2[i],
            scheme: "upto" as const,
            extra: {
              name: o.extra.name,
              version: o.extra.version,
              assetTransferMethod: "permit2" as const,
              facilitatorAddress: o.upto.facilitatorAddress,
            },
          },
        ]
      : [],
  );
  // Credits and the charge the log shows count USDC's six decimals, whichever option was paid.
  return { amount: toAtomicAmount(price, 6), resource, v2, v1, batch, upto };
}
