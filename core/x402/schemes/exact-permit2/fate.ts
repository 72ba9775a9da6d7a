import { x402ExactPermit2ProxyABI, x402ExactPermit2ProxyAddress } from "@x402/evm";
import { permit2FateOf } from "../../permit2-fate.ts";

/** An exact Permit2 payment's fate: settled through x402's exact proxy, whose `settle(permit, owner, ...)`. */
export const exactPermit2FateOf = permit2FateOf({
  address: x402ExactPermit2ProxyAddress,
  abi: x402ExactPermit2ProxyABI,
  ownerAt: 1,
});
