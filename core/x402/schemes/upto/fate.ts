import { x402UptoPermit2ProxyABI, x402UptoPermit2ProxyAddress } from "@x402/evm";
import { permit2FateOf } from "../../permit2-fate.ts";

/** An upto permit's fate: settled through x402's upto proxy, whose `settle(permit, amount, owner, ...)`. */
export const uptoFateOf = permit2FateOf({
  address: x402UptoPermit2ProxyAddress,
  abi: x402UptoPermit2ProxyABI,
  ownerAt: 2,
});
