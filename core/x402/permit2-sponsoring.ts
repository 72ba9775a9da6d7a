import { PERMIT2_ADDRESS } from "@x402/evm";
import { hashTypedData, hexToBytes, type Hex } from "viem";
import { PaymentRejected } from "./codec.ts";
import type { RouteRequirements } from "./requirements.ts";
import { recoverSigner } from "./signature.ts";

/**
 * @x402/extensions' `eip2612GasSponsoring` declaration, written here: its package root (the only place it is
 * exported) costs about 440 ms to load at boot.
 */
export const eip2612GasSponsoring = {
  info: {
    description: "The facilitator accepts EIP-2612 gasless Permit to `Permit2` canonical contract.",
    version: "1",
  },
};

/** The EIP-2612 permit a Permit2 payer without an allowance signs for Permit2, as @x402/evm's client writes it. */
export interface SponsoredPermit {
  from: string;
  asset: string;
  spender: string;
  amount: string;
  nonce: string;
  deadline: string;
  signature: string;
  version: string;
}

/**
 * A Permit2 requirement whose token has EIP-2612 `permit`: an upto one (its tokens sign EIP-712), or an exact one
 * whose option names the token's EIP-712 domain. A route offering one declares the extension in its 402.
 */
const takesPermit = (extra: Record<string, unknown>) =>
  extra.assetTransferMethod === "permit2" && typeof extra.name === "string" && typeof extra.version === "string";

export const sponsorsPermits = (route: RouteRequirements) =>
  route.upto.length > 0 || route.v2.some((r) => takesPermit(r.extra));

/** The permit a payment carries, undefined when it carries none. */
export const sponsoredPermitOf = (payload: { extensions?: Record<string, unknown> } | undefined): unknown =>
  (payload?.extensions?.eip2612GasSponsoring as { info?: unknown } | undefined)?.info;

const permitTypes = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const address = /^0x[0-9a-fA-F]{40}$/;
const uint = /^\d{1,78}$/;
const wellFormed = (p: unknown): p is SponsoredPermit => {
  const { from, asset, spender, amount, nonce, deadline, signature, version } = (p ?? {}) as Record<string, unknown>;
  const all = (re: RegExp, ...values: unknown[]) => values.every((x) => typeof x === "string" && re.test(x));
  return (
    all(address, from, asset, spender) &&
    all(uint, amount, nonce, deadline) &&
    all(/^0x[0-9a-fA-F]+$/, signature) &&
    all(/^\d+(\.\d+)*$/, version)
  );
};

/**
 * Binds the EIP-2612 permit a Permit2 payment carries, before any RPC: from the payer, on our token, to Permit2,
 * for at least what the Permit2 permit moves, not expired, signed by the payer under the token's own domain. The
 * settlement submits it (`settleWithPermit`), so the payer needs no prior approve; its nonce is the token's to check.
 */
export function bindSponsoredPermit(
  payload: { extensions?: Record<string, unknown> },
  requirement: { network: string; asset: string; extra: Record<string, unknown> },
  permit2: { from: string; amount: bigint },
  nowSeconds: number,
) {
  const permit = sponsoredPermitOf(payload);
  if (permit === undefined) return;
  const { name, version } = requirement.extra;
  if (typeof name !== "string" || typeof version !== "string")
    throw new PaymentRejected(
      "eip2612_not_supported",
      "This token takes no EIP-2612 permit: approve Permit2 once from the paying wallet instead",
    );
  if (!wellFormed(permit))
    throw new PaymentRejected("invalid_eip2612_extension_format", "The EIP-2612 permit is malformed");
  if (!same(permit.from, permit2.from))
    throw new PaymentRejected("eip2612_from_mismatch", "The EIP-2612 permit is another owner's");
  if (!same(permit.asset, requirement.asset))
    throw new PaymentRejected("eip2612_asset_mismatch", "The EIP-2612 permit is for another token");
  if (!same(permit.spender, PERMIT2_ADDRESS))
    throw new PaymentRejected("eip2612_spender_not_permit2", "The EIP-2612 permit's spender is not Permit2");
  if (BigInt(permit.amount) < permit2.amount)
    throw new PaymentRejected(
      "eip2612_amount_too_low",
      `The EIP-2612 permit allows Permit2 ${permit.amount}, less than the payment's ${permit2.amount}`,
    );
  if (BigInt(permit.deadline) < BigInt(nowSeconds + 6))
    throw new PaymentRejected("eip2612_deadline_expired", "The EIP-2612 permit has expired");
  const digest = hashTypedData({
    domain: {
      name,
      version,
      chainId: Number(requirement.network.split(":")[1]),
      verifyingContract: requirement.asset as Hex,
    },
    types: permitTypes,
    primaryType: "Permit",
    message: {
      owner: permit.from as Hex,
      spender: permit.spender as Hex,
      value: BigInt(permit.amount),
      nonce: BigInt(permit.nonce),
      deadline: BigInt(permit.deadline),
    },
  });
  const signer = recoverSigner(hexToBytes(digest), permit.signature);
  if (!signer || !same(signer, permit.from))
    throw new PaymentRejected("invalid_eip2612_signature", "The EIP-2612 permit's signature does not match the payer");
}
