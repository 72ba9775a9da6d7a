import type { FacilitatorClient } from "@x402/core/server";
import { createX402Facilitator } from "../../core/x402/facilitator.ts";

/**
 * The reference servers get the very facilitator our gate uses (research x402.md 3.4), so the paid
 * comparison measures the servers and not two different facilitators. x402ResourceServer also asks it
 * getSupported() (synchronous here, a promise in FacilitatorClient).
 */
export function referenceFacilitator(o: {
  rpcUrl: string;
  chainId: number;
  relayerKey: `0x${string}`;
}): FacilitatorClient {
  const facilitator = createX402Facilitator(o);
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient["getSupported"]>>,
  };
}
