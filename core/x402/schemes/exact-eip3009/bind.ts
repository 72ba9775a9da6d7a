import { PaymentRejected, type Authorization, type DecodedPayment } from "../../codec.ts";
import type { BoundCommon } from "../../bound.ts";
import { matchExact } from "../../exact.ts";
import type { RouteRequirements } from "../../requirements.ts";
import type { BindingParts } from "../../scheme.ts";
import { isLongSignature, recoverAuthorizer, type TokenDomain } from "../../signature.ts";
import { exactEip3009Terms } from "./terms.ts";

/** An EIP-3009 authorization: unique by (asset, from, nonce) on its network. */
export interface BoundEip3009Payment extends BoundCommon {
  authorization: Authorization;
  signature: string;
  /** The token's EIP-712 domain the authorization is signed under. */
  domain: TokenDomain;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Binds an EIP-3009 authorization to our route's `exact` requirement: it moves the price to payTo within the time
 * window, and an EOA's signature is recovered here, before any RPC (a contract wallet's is proven on-chain).
 */
export function bindEip3009(
  decoded: DecodedPayment,
  route: RouteRequirements,
  nowSeconds: number,
  parts: BindingParts,
): BoundEip3009Payment {
  const { requirement, network, ...common } = matchExact(decoded, route, exactEip3009Terms, parts);
  if (requirement.extra?.assetTransferMethod === "permit2")
    throw new PaymentRejected(
      "invalid_payload",
      "This token is paid through Permit2 (extra.assetTransferMethod permit2): the payment carries a Permit2 authorization and its signature",
    );
  const inner = decoded.payload.payload;
  if (!("authorization" in inner))
    throw new PaymentRejected("invalid_payload", "An EVM payment carries an EIP-3009 authorization and its signature");
  const { authorization, signature } = inner;

  const amount = "amount" in requirement ? requirement.amount : requirement.maxAmountRequired;
  if (authorization.value !== amount) {
    throw new PaymentRejected(
      "invalid_exact_evm_payload_authorization_value_mismatch",
      `The authorization moves ${authorization.value}, this route costs ${amount}`,
    );
  }
  if (!same(authorization.to, requirement.payTo))
    throw new PaymentRejected("invalid_exact_evm_recipient_mismatch", "The authorization pays another address");
  const validBefore = BigInt(authorization.validBefore);
  if (validBefore < BigInt(nowSeconds + 6)) {
    throw new PaymentRejected("invalid_exact_evm_payload_authorization_valid_before", "The authorization has expired");
  }
  if (validBefore > BigInt(nowSeconds + requirement.maxTimeoutSeconds + parts.clockSkewSeconds)) {
    throw new PaymentRejected(
      "invalid_exact_evm_payload_authorization_valid_before",
      `The authorization is valid for longer than this route allows: validBefore may be at most maxTimeoutSeconds (${requirement.maxTimeoutSeconds}) ahead`,
    );
  }
  if (BigInt(authorization.validAfter) > BigInt(nowSeconds)) {
    throw new PaymentRejected(
      "invalid_exact_evm_payload_authorization_valid_after",
      "The authorization is not valid yet",
    );
  }
  const domain = {
    name: requirement.extra.name,
    version: requirement.extra.version,
    chainId: Number(network.split(":")[1]),
    verifyingContract: requirement.asset as `0x${string}`,
  };
  const signerProven = !isLongSignature(signature);
  if (signerProven) {
    const signer = recoverAuthorizer(domain, authorization, signature);
    if (!signer || !same(signer, authorization.from))
      throw new PaymentRejected("invalid_exact_evm_signature", "The signature does not match the payer");
  }
  return {
    scheme: exactEip3009Terms,
    nonce: authorization.nonce.toLowerCase(),
    version: common.version,
    requirement,
    network,
    authorization,
    signature,
    domain,
    signerProven,
    paymentId: common.paymentId,
    payload: common.payload,
    payer: authorization.from,
    // The codec admits only 0x and 64 hex digits for the nonce: lower-cased, it has one spelling.
    claimId: `${requirement.asset.toLowerCase()}:${authorization.from.toLowerCase()}:${authorization.nonce.toLowerCase()}`,
    amount: authorization.value,
    validUntil: Number(authorization.validBefore),
  };
}
