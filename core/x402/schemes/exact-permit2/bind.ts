import { permit2WitnessTypes, x402ExactPermit2ProxyAddress } from "@x402/evm";
import type { BoundCommon } from "../../bound.ts";
import { PaymentRejected, type ExactPermit2Authorization, type PaymentPayloadV2 } from "../../codec.ts";
import type { RequirementsV2 } from "../../requirements.ts";
import { bindPermit2, type Permit2Proxy } from "../../permit2-bind.ts";
import { exactPermit2Terms } from "./terms.ts";

/** An exact Permit2 transfer: unique by (from, nonce) in Permit2's nonce bitmap on its network, as an upto permit. */
export interface BoundExactPermit2Payment extends BoundCommon {
  requirement: RequirementsV2;
  permit2Authorization: ExactPermit2Authorization;
  signature: string;
}

/** x402's exact proxy: the permit's witness names payTo and the start of its window. */
const exactProxy: Permit2Proxy<ExactPermit2Authorization> = {
  name: "exact",
  address: x402ExactPermit2ProxyAddress,
  witnessTypes: permit2WitnessTypes,
  witness: (p) => ({ to: p.witness.to, validAfter: BigInt(p.witness.validAfter) }),
};

/**
 * Binds an exact payment in a token paid through Permit2 to this route's own requirement for it: the permit moves
 * our asset, exactly the price, through x402's exact proxy to payTo, within the time window. Its signature is
 * recovered here, before any RPC; the nonce is claimed in Permit2's space, shared with upto permits.
 */
export function bindExactPermit2(
  payload: PaymentPayloadV2,
  requirement: RequirementsV2,
  nowSeconds: number,
  common: Pick<BoundCommon, "version" | "paymentId" | "payload">,
  maxSkewSeconds: number,
): BoundExactPermit2Payment {
  const inner = payload.payload;
  if (!("permit2Authorization" in inner))
    throw new PaymentRejected(
      "invalid_payload",
      "This token is paid through Permit2 (extra.assetTransferMethod permit2): the payment carries a Permit2 authorization and its signature",
    );
  const { permit2Authorization: p, signature } = inner;
  const { nonce, deadline, signerProven } = bindPermit2(
    payload,
    p,
    signature,
    requirement,
    exactProxy,
    nowSeconds,
    maxSkewSeconds,
  );
  return {
    ...common,
    scheme: exactPermit2Terms,
    nonce: String(nonce),
    requirement,
    network: requirement.network,
    permit2Authorization: p,
    signature,
    signerProven,
    payer: p.from,
    claimId: `permit2:${p.from.toLowerCase()}:${nonce}`,
    amount: requirement.amount,
    validUntil: Number(deadline),
  };
}
