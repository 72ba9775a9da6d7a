import { PERMIT2_ADDRESS, permit2WitnessTypes, x402ExactPermit2ProxyAddress } from "@x402/evm";
import { hashTypedData, hexToBytes, maxUint256, type Hex } from "viem";
import type { BoundCommon } from "../../bound.ts";
import { PaymentRejected, type ExactPermit2Authorization, type PaymentPayloadV2 } from "../../codec.ts";
import type { RequirementsV2 } from "../../requirements.ts";
import { bindSponsoredPermit } from "../../permit2-sponsoring.ts";
import { isLongSignature, recoverSigner } from "../../signature.ts";
import { exactPermit2Terms } from "./terms.ts";

/** An exact Permit2 transfer: unique by (from, nonce) in Permit2's nonce bitmap on its network, as an upto permit. */
export interface BoundExactPermit2Payment extends BoundCommon {
  requirement: RequirementsV2;
  permit2Authorization: ExactPermit2Authorization;
  signature: string;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

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
  // Permit2's nonce is a uint256: "7", "07" and "007" are one nonce under one signature, so the key holds its number.
  const nonce = BigInt(p.nonce);
  if (nonce > maxUint256) throw new PaymentRejected("permit2_invalid_nonce", "The permit's nonce is not a uint256");
  if (payload.accepted.amount !== requirement.amount || BigInt(p.permitted.amount) !== BigInt(requirement.amount))
    throw new PaymentRejected(
      "permit2_amount_mismatch",
      `This route costs ${requirement.amount}, not ${p.permitted.amount}`,
    );
  if (!same(p.permitted.token, requirement.asset))
    throw new PaymentRejected("permit2_token_mismatch", "The permit moves another token");
  if (!same(payload.accepted.payTo, requirement.payTo) || !same(p.witness.to, requirement.payTo))
    throw new PaymentRejected("invalid_permit2_recipient_mismatch", "The permit pays another address");
  if (!same(p.spender, x402ExactPermit2ProxyAddress))
    throw new PaymentRejected("invalid_permit2_spender", "The permit's spender is not x402's exact proxy");
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
      types: permit2WitnessTypes,
      primaryType: "PermitWitnessTransferFrom",
      message: {
        permitted: { token: p.permitted.token as Hex, amount: BigInt(p.permitted.amount) },
        spender: p.spender as Hex,
        nonce,
        deadline,
        witness: { to: p.witness.to as Hex, validAfter: BigInt(p.witness.validAfter) },
      },
    });
    const signer = recoverSigner(hexToBytes(digest), signature);
    if (!signer || !same(signer, p.from))
      throw new PaymentRejected("invalid_permit2_signature", "The signature does not match the payer");
  }
  bindSponsoredPermit(payload, requirement, { from: p.from, amount: BigInt(p.permitted.amount) }, nowSeconds);
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
