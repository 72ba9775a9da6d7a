import { uptoPermit2WitnessTypes, x402UptoPermit2ProxyAddress } from "@x402/evm";
import type { BoundCommon } from "../../bound.ts";
import { uptoTerms } from "./terms.ts";
import { PaymentRejected, type Permit2Authorization, type PaymentPayloadV2 } from "../../codec.ts";
import type { RouteRequirements, UptoRequirement } from "../../requirements.ts";
import { bindPermit2, type Permit2Proxy } from "../../permit2-bind.ts";

/** An upto Permit2 authorization: unique by (from, nonce) in Permit2's nonce bitmap on its network. */
export interface BoundUptoPayment extends BoundCommon {
  requirement: UptoRequirement;
  permit2Authorization: Permit2Authorization;
  signature: string;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** x402's upto proxy: the permit's witness also names the one facilitator that may settle it. */
const uptoProxy: Permit2Proxy<Permit2Authorization> = {
  name: "upto",
  address: x402UptoPermit2ProxyAddress,
  witnessTypes: uptoPermit2WitnessTypes,
  witness: (p) => ({ to: p.witness.to, facilitator: p.witness.facilitator, validAfter: BigInt(p.witness.validAfter) }),
};

/**
 * Binds an upto payment to this route's own upto requirement: the permit moves our asset, at most the quoted
 * price, through x402's upto proxy, to payTo, settled only by our facilitator, within the time window. Its
 * signature is recovered here, before any RPC.
 */
export function bindUpto(
  payload: PaymentPayloadV2,
  route: RouteRequirements,
  nowSeconds: number,
  common: Pick<BoundCommon, "version" | "paymentId" | "payload">,
  maxSkewSeconds: number,
): BoundUptoPayment {
  const { accepted } = payload;
  const requirement = route.upto.find((r) => r.network === accepted.network && same(r.asset, accepted.asset));
  if (!requirement)
    throw new PaymentRejected("unsupported_scheme", `upto on ${accepted.network} is not accepted on this route`);
  const inner = payload.payload;
  // An exact Permit2 authorization names no facilitator in its witness: it is no upto permit.
  if (!("permit2Authorization" in inner) || !("facilitator" in inner.permit2Authorization.witness))
    throw new PaymentRejected("invalid_payload", "An upto payment carries a Permit2 authorization and its signature");
  const { signature } = inner;
  const p = { ...inner.permit2Authorization, witness: inner.permit2Authorization.witness };
  if (!same(p.witness.facilitator, requirement.extra.facilitatorAddress))
    throw new PaymentRejected("upto_facilitator_mismatch", "The permit names another facilitator");
  const { nonce, deadline, signerProven } = bindPermit2(
    payload,
    p,
    signature,
    requirement,
    uptoProxy,
    nowSeconds,
    maxSkewSeconds,
  );
  return {
    ...common,
    scheme: uptoTerms,
    nonce: String(nonce),
    recorded: { permit2: true },
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
