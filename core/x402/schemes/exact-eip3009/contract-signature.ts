import { authorizationTypes } from "@x402/evm";
import { BaseError, HttpRequestError, TimeoutError, createPublicClient, http, type Hex } from "viem";
import { unavailable } from "../../../runtime/errors.ts";
import type { Authorization } from "../../../payment/payment.ts";
import type { BoundEip3009Payment } from "./bind.ts";

/**
 * Proves a contract wallet's signature (ERC-1271, or ERC-6492 for one not deployed yet) with one `eth_call`,
 * whatever the nonce's state on-chain: a settled payment's signature still proves its payer, so a retry
 * can be answered. A malformed or refused signature is "not proven"; an unreachable chain is a 503.
 */
export function createContractSignatureProver(rpcUrl: string) {
  const client = createPublicClient({ transport: http(rpcUrl) });
  return async (payment: Authorization): Promise<boolean> => {
    const p = payment as BoundEip3009Payment;
    const a = p.authorization;
    try {
      return await client.verifyTypedData({
        address: a.from as Hex,
        domain: p.domain,
        types: authorizationTypes,
        primaryType: "TransferWithAuthorization",
        message: {
          from: a.from as Hex,
          to: a.to as Hex,
          value: BigInt(a.value),
          validAfter: BigInt(a.validAfter),
          validBefore: BigInt(a.validBefore),
          nonce: a.nonce as Hex,
        },
        signature: p.signature as Hex,
      });
    } catch (error) {
      const unreachable =
        error instanceof BaseError && error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError);
      if (unreachable)
        throw unavailable("The chain cannot be reached to check this wallet's signature; retry the call", 1);
      return false;
    }
  };
}
