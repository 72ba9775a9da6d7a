import { createPermit2ApprovalTx } from "@x402/evm/exact/client";
import { PERMIT2_ADDRESS } from "@x402/evm";
import type { SchemeTerms } from "../../bound.ts";

/** What @x402/evm's facilitator answers when the payer's allowance to Permit2 is short of the payment. */
export const allowanceRequired = "permit2_allowance_required";

/** `exact` through Permit2 (x402's exact proxy): any ERC-20, USDT and DAI among them. */
export const exactPermit2Terms: SchemeTerms = {
  name: "exact-permit2",
  payAsUsed: false,
  insufficientFunds: "permit2_insufficient_balance",
  invalidSignature: "invalid_permit2_signature",
  // A contract wallet's EIP-1271/6492 signature over Permit2's typed data, proven by the facilitator's verify.
  provenBy: "facilitator",
  canonical: (address: string) => address.toLowerCase(),
  remedy(reason, payment) {
    if (reason !== allowanceRequired) return undefined;
    const { to, data } = createPermit2ApprovalTx(payment.requirement.asset as `0x${string}`);
    return {
      message:
        "This wallet has not approved Permit2 to move this token. Send the transaction in `approve` once, from the paying wallet (it pays that gas), then send the payment again: every later payment needs only a signature",
      details: {
        approve: {
          chainId: Number(payment.network.split(":")[1]),
          from: payment.payer,
          to,
          data,
          call: `approve(${PERMIT2_ADDRESS}, 2^256-1)`,
        },
      },
    };
  },
};
