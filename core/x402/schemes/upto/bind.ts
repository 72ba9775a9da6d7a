import { uptoPermit2WitnessTypes, PERMIT2_ADDRESS, x402UptoPermit2ProxyAddress } from "@x402/evm";
import { hashTypedData, hexToBytes, maxUint256, type Hex } from "viem";
import type { BoundCommon } from "../../bound.ts";
import { uptoTerms } from "./terms.ts";
import { PaymentRejected, type Permit2Authorization, type PaymentPayloadV2 } from "../../codec.ts";
import type { RouteRequirements, UptoRequirement } from "../../requirements.ts";
import { bindSponsoredPermit } from "../../permit2-sponsoring.ts";
import { isLongSignature, recoverSigner } from "../../signature.ts";

/** An upto Permit2 authorization: unique by (from, nonce) in Permit2's nonce bitmap on its network. */
export interface BoundUptoPayment extends BoundCommon {
  requirement: UptoRequirement;
  permit2Authorization: Permit2Authorization;
  signature: string;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

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
  // Permit2's nonce is a uint256: "7", "07" and "007" are one nonce under one signature, so the key holds its number.
  const nonce = BigInt(p.nonce);
  if (nonce > maxUint256) throw new PaymentRejected("permit2_invalid_nonce", "The permit's nonce is not a uint256");
  if (accepted.amount !== requirement.amount || p.permitted.amount !== requirement.amount)
    throw new PaymentRejected(
      "permit2_amount_mismatch",
      `This route authorizes at most ${requirement.amount}, not ${p.permitted.amount}`,
    );
  if (!same(p.permitted.token, requirement.asset))
    throw new PaymentRejected("permit2_token_mismatch", "The permit moves another token");
  if (!same(accepted.payTo, requirement.payTo) || !same(p.witness.to, requirement.payTo))
    throw new PaymentRejected("invalid_permit2_recipient_mismatch", "The permit pays another address");
  if (!same(p.spender, x402UptoPermit2ProxyAddress))
    throw new PaymentRejected("invalid_permit2_spender", "The permit's spender is not x402's upto proxy");
  if (!same(p.witness.facilitator, requirement.extra.facilitatorAddress))
    throw new PaymentRejected("upto_facilitator_mismatch", "The permit names another facilitator");
  const deadline = BigInt(p.deadline);
  if (deadline < BigInt(nowSeconds + 6))
    throw new PaymentRejected("permit2_deadline_expired", "The permit has expired");
  if (deadline > BigInt(nowSeconds + requirement.maxTimeoutSeconds + maxSkewSeconds))
    throw new PaymentRejected(
      "permit2_deadline_too_far",
      `The permit is valid for longer than this route allows: its deadline may be at most maxTimeoutSeconds (${requirement.maxTimeoutSeconds}) ahead`,
    );
  if (BigInt(p.witness.validAfter) > BigInt(nowSeconds))
    throw new PaymentRejected("permit2_not_yet_valid", "The permit is not valid yet");
  // A contract wallet's signature (longer than 65 bytes) is proven by the facilitator before the claim.
  const signerProven = !isLongSignature(signature);
  if (signerProven) {
    const digest = hashTypedData({
      domain: {
        name: "Permit2",
        chainId: Number(requirement.network.split(":")[1]),
        verifyingContract: PERMIT2_ADDRESS,
      },
      types: uptoPermit2WitnessTypes,
      primaryType: "PermitWitnessTransferFrom",
      message: {
        permitted: { token: p.permitted.token as Hex, amount: BigInt(p.permitted.amount) },
        spender: p.spender as Hex,
        nonce,
        deadline,
        witness: {
          to: p.witness.to as Hex,
          facilitator: p.witness.facilitator as Hex,
          validAfter: BigInt(p.witness.validAfter),
        },
      },
    });
    const signer = recoverSigner(hexToBytes(digest), signature);
    if (!signer || !same(signer, p.from))
      throw new PaymentRejected("invalid_permit2_signature", "The signature does not match the payer");
  }
  bindSponsoredPermit(payload, requirement, { from: p.from, amount: BigInt(p.permitted.amount) }, nowSeconds);
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
