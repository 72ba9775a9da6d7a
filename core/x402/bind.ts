import { PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { PaymentRejected, type Authorization, type DecodedPayment } from "./codec.ts";
import type { BoundCommon } from "./bound.ts";
import { exactEip3009Terms } from "./schemes/exact-eip3009/terms.ts";
import type { BoundSvmPayment } from "./schemes/exact-svm/bind.ts";
import { bindUpto, type BoundUptoPayment } from "./schemes/upto/bind.ts";
import { bindExactPermit2, type BoundExactPermit2Payment } from "./schemes/exact-permit2/bind.ts";
import {
  familyOf,
  networkOfV1Name,
  type RequirementsV1,
  type RequirementsV2,
  type RouteRequirements,
} from "./requirements.ts";
import { isLongSignature, recoverAuthorizer, type TokenDomain } from "./signature.ts";

/** An EIP-3009 authorization: unique by (asset, from, nonce) on its network. */
export interface BoundEvmPayment extends BoundCommon {
  family: "evm";
  authorization: Authorization;
  signature: string;
  /** The token's EIP-712 domain the authorization is signed under. */
  domain: TokenDomain;
}

export type BoundPayment = BoundEvmPayment | BoundSvmPayment | BoundUptoPayment | BoundExactPermit2Payment;

/** How far a payer's clock may run ahead of ours when it sets `validBefore`. */
export const clockSkewSeconds = 60;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Binds a decoded payment to the requirements this server built for the route; nothing the client
 * echoes is trusted. Then checks the time window and the signature locally, before any RPC.
 */
export async function bindPayment(
  decoded: DecodedPayment,
  route: RouteRequirements,
  nowSeconds: number,
): Promise<BoundPayment> {
  // The identifier first: its format is fixed (ours to check, whatever schema the client sends along).
  const paymentId = decoded.version === 2 ? paymentIdOf(decoded.payload.extensions) : undefined;
  let requirement: RequirementsV1 | RequirementsV2;
  let network: string;
  if (decoded.version === 2) {
    const accepted = decoded.payload.accepted;
    if (decoded.payload.resource && decoded.payload.resource.url !== route.resource.url) {
      throw new PaymentRejected(
        "resource_mismatch",
        `This payment is for ${decoded.payload.resource.url}, not ${route.resource.url}`,
      );
    }
    if (accepted.scheme === "upto")
      return bindUpto(
        decoded.payload,
        route,
        nowSeconds,
        { version: 2, paymentId, payload: decoded.raw },
        clockSkewSeconds,
      );
    const byNetwork = route.v2.filter((r) => r.network === accepted.network);
    if (accepted.scheme !== "exact")
      throw new PaymentRejected("unsupported_scheme", `Scheme ${accepted.scheme} is not accepted`);
    if (!byNetwork.length) throw new PaymentRejected("invalid_network", `Network ${accepted.network} is not accepted`);
    // EVM addresses compare in any case; Solana's base58 only exactly.
    const eq = familyOf(accepted.network) === "svm" ? (a: string, b: string) => a === b : same;
    const matched = byNetwork.find((r) => eq(r.asset, accepted.asset));
    if (!matched)
      throw new PaymentRejected("invalid_asset", `Asset ${accepted.asset} is not accepted on ${accepted.network}`);
    if (matched.extra.assetTransferMethod === "permit2")
      return bindExactPermit2(
        decoded.payload,
        matched,
        nowSeconds,
        { version: 2, paymentId, payload: decoded.raw },
        clockSkewSeconds,
      );
    if (accepted.amount !== matched.amount) {
      throw new PaymentRejected(
        "invalid_exact_evm_payload_authorization_value_mismatch",
        `This route costs ${matched.amount}, not ${accepted.amount}`,
      );
    }
    if (!eq(accepted.payTo, matched.payTo))
      throw new PaymentRejected("invalid_exact_evm_recipient_mismatch", "The payment is to another payee");
    requirement = matched;
    network = matched.network;
  } else {
    const p = decoded.payload;
    if (p.scheme !== "exact") throw new PaymentRejected("unsupported_scheme", `Scheme ${p.scheme} is not accepted`);
    const matched = route.v1.find((r) => r.network === p.network);
    if (!matched) throw new PaymentRejected("invalid_network", `Network ${p.network} is not accepted`);
    requirement = matched;
    network = networkOfV1Name(matched.network)!;
  }
  const inner = decoded.payload.payload;
  const common = { version: decoded.version, requirement, network, paymentId, payload: decoded.raw };
  if (familyOf(network) === "svm") {
    if (!("transaction" in inner))
      throw new PaymentRejected("invalid_payload", "A Solana payment carries the payer's signed transaction");
    // Loaded with the first Solana payment: a service without a Solana option never loads @solana/kit here.
    const { bindSvmTransaction } = await import("./schemes/exact-svm/bind.ts");
    return bindSvmTransaction(inner.transaction, common, nowSeconds);
  }
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
  if (validBefore > BigInt(nowSeconds + requirement.maxTimeoutSeconds + clockSkewSeconds)) {
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
    family: "evm",
    scheme: exactEip3009Terms,
    nonce: authorization.nonce.toLowerCase(),
    version: decoded.version,
    requirement,
    network,
    authorization,
    signature,
    domain,
    signerProven,
    paymentId,
    payload: decoded.raw,
    payer: authorization.from,
    // The codec admits only 0x and 64 hex digits for the nonce: lower-cased, it has one spelling.
    claimId: `${requirement.asset.toLowerCase()}:${authorization.from.toLowerCase()}:${authorization.nonce.toLowerCase()}`,
    amount: authorization.value,
    validUntil: Number(authorization.validBefore),
  };
}

/** The `payment-identifier`'s documented format (@x402/extensions: 16 to 128 of A-Z, a-z, 0-9, `_` and `-`). */
const paymentIdFormat = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The `payment-identifier` a v2 payload carries, checked against the extension's fixed format by this code alone:
 * a schema the client sends with it is never compiled or run (a pattern of its choosing could hold the event loop).
 */
export function paymentIdOf(extensions: Record<string, unknown> | undefined): string | undefined {
  const info = (extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: unknown; required?: unknown } } | undefined)?.info;
  if (info?.id === undefined) return undefined;
  if (typeof info.id !== "string" || !paymentIdFormat.test(info.id) || typeof info.required !== "boolean")
    throw new PaymentRejected(
      "invalid_payment_identifier",
      "The payment identifier must be 16-128 characters of A-Z, a-z, 0-9, _ and -, beside a boolean `required`",
    );
  return info.id;
}
