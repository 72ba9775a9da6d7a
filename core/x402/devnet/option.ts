import type { PaymentOption } from "../requirements.ts";
import { BATCH_WITHDRAW_DELAY } from "../options.ts";

/** What a local EVM chain offers payment in: its test USDC, paid to its dev payTo. */
export interface LocalChain {
  network: string;
  usdc: { address: string; name: string; version: string; decimals: number };
  payTo: string;
}

/**
 * The payment option of a local chain (the devnet's, a test's second chain, the bench's): one definition for the
 * service, the tests and the benchmarks. `batchAuthorizer` also takes vouchers, their claims authorized by it.
 */
export function devnetOption(
  chain: LocalChain,
  o: { maxTimeoutSeconds?: number; batchAuthorizer?: string } = {},
): PaymentOption {
  return {
    network: chain.network,
    asset: chain.usdc.address,
    payTo: chain.payTo,
    decimals: chain.usdc.decimals,
    extra: { name: chain.usdc.name, version: chain.usdc.version },
    maxTimeoutSeconds: o.maxTimeoutSeconds ?? 300,
    ...(o.batchAuthorizer
      ? { batch: { receiverAuthorizer: o.batchAuthorizer, withdrawDelay: BATCH_WITHDRAW_DELAY } }
      : {}),
  };
}

/**
 * The option of a local chain's token paid with `exact` through Permit2, v2 only: the devnet's test DAI (no EIP-3009),
 * whose payers approve Permit2 once (the devnet's dev payer has), or a token with EIP-2612 `permit` (its EIP-712
 * `name` and `version` given), whose payers without an allowance sign a permit for Permit2 with their payment.
 */
export function devnetPermit2Option(
  chain: {
    network: string;
    token: { address: string; decimals: number; name?: string; version?: string };
    payTo: string;
  },
  o: { maxTimeoutSeconds?: number } = {},
): PaymentOption {
  const { name, version } = chain.token;
  return {
    network: chain.network,
    asset: chain.token.address,
    payTo: chain.payTo,
    decimals: chain.token.decimals,
    extra: { ...(name && version ? { name, version } : {}), assetTransferMethod: "permit2" },
    maxTimeoutSeconds: o.maxTimeoutSeconds ?? 300,
  };
}
