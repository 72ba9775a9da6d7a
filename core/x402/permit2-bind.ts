import { PERMIT2_ADDRESS } from "@x402/evm";
import { hashTypedData, hexToBytes, maxUint256, type Hex, type TypedData } from "viem";
import { PaymentRejected, type ExactPermit2Authorization } from "./codec.ts";
import { bindSponsoredPermit } from "./permit2-sponsoring.ts";
import { isLongSignature, recoverSigner } from "./signature.ts";

/** Which of x402's Permit2 proxies a scheme's permits name as spender, and the witness they sign. */
export interface Permit2Proxy<P extends ExactPermit2Authorization> {
  name: string;
  address: string;
  witnessTypes: TypedData;
  /** The witness as signed (its fields in the witness type's order and types). */
  witness(p: P): Record<string, unknown>;
}

/** The route's requirement a permit is bound to. */
interface Permit2Requirement {
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: Record<string, unknown>;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The checks every Permit2 payment passes before any RPC, whichever proxy settles it: the permit moves our asset,
 * exactly the requirement's amount, to payTo, through `proxy`, within the time window (a deadline at most
 * maxTimeoutSeconds ahead), its Permit2 signature recovered here (a contract wallet's, longer, is proven by the
 * facilitator) and its EIP-2612 permit, if it carries one, bound too. Returns the nonce as a number, the one spelling
 * of the claim key Permit2's space shares between schemes.
 */
export function bindPermit2<P extends ExactPermit2Authorization>(
  payload: { accepted: { amount: string; payTo: string }; extensions?: Record<string, unknown> },
  p: P,
  signature: string,
  requirement: Permit2Requirement,
  proxy: Permit2Proxy<P>,
  nowSeconds: number,
  maxSkewSeconds: number,
) {
  // Permit2's nonce is a uint256: "7", "07" and "007" are one nonce under one signature, so the key holds its number.
  const nonce = BigInt(p.nonce);
  if (nonce > maxUint256) throw new PaymentRejected("permit2_invalid_nonce", "The permit's nonce is not a uint256");
  const amount = BigInt(p.permitted.amount);
  if (payload.accepted.amount !== requirement.amount || amount !== BigInt(requirement.amount))
    throw new PaymentRejected(
      "permit2_amount_mismatch",
      `The permit must move ${requirement.amount} on this route, not ${p.permitted.amount}`,
    );
  if (!same(p.permitted.token, requirement.asset))
    throw new PaymentRejected("permit2_token_mismatch", "The permit moves another token");
  if (!same(payload.accepted.payTo, requirement.payTo) || !same(p.witness.to, requirement.payTo))
    throw new PaymentRejected("invalid_permit2_recipient_mismatch", "The permit pays another address");
  if (!same(p.spender, proxy.address))
    throw new PaymentRejected("invalid_permit2_spender", `The permit's spender is not x402's ${proxy.name} proxy`);
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
  const signerProven = !isLongSignature(signature);
  if (signerProven) {
    const digest = hashTypedData({
      domain: {
        name: "Permit2",
        chainId: Number(requirement.network.split(":")[1]),
        verifyingContract: PERMIT2_ADDRESS,
      },
      types: proxy.witnessTypes,
      primaryType: "PermitWitnessTransferFrom",
      message: {
        permitted: { token: p.permitted.token as Hex, amount },
        spender: p.spender as Hex,
        nonce,
        deadline,
        witness: proxy.witness(p),
      },
    });
    const signer = recoverSigner(hexToBytes(digest), signature);
    if (!signer || !same(signer, p.from))
      throw new PaymentRejected("invalid_permit2_signature", "The signature does not match the payer");
  }
  bindSponsoredPermit(payload, requirement, { from: p.from, amount }, nowSeconds);
  return { nonce, deadline, signerProven };
}
