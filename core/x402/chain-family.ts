import type { Probe } from "../runtime/readiness.ts";
import type { Authorization } from "../payment/payment.ts";
import type { Facilitator } from "./facilitator-api.ts";
import type { ConfiguredOption } from "./options.ts";
import type { LocalFacilitatorOptions } from "./relayer.ts";

export type RelayerSettings = Pick<LocalFacilitatorOptions, "maxFeePerGas" | "replaceAfterMs" | "log">;

/** What the rail does differently on a family of networks (a CAIP-2 namespace): how its options settle and are watched. */
export interface ChainFamily {
  /**
   * Builds an option's facilitator (a local relayer or fee payer, or its remote facilitator) and completes what
   * its 402 names that only the facilitator knows (a Solana fee payer, the settler of `upto` permits).
   */
  facilitator(o: ConfiguredOption, upto: boolean, relayer: RelayerSettings): Promise<Facilitator>;
  /** Readiness of the option's chain RPC. */
  probe(rpcUrl: string): Probe;
  /** The balance of the local wallet that pays the option's settlement fees, for /metrics. */
  watchFeeWallet(o: ConfiguredOption & { facilitator: { kind: "local" } }): void;
  /** Proves contract wallets' signatures against its chain, where it has such wallets. */
  contractSignatureProver?(rpcUrl: string): (payment: Authorization) => Promise<boolean>;
  /** Its chain is the one the service's own chain reads use (the arcade's `payment-chain` upstream). */
  servesChainReads?: true;
}
