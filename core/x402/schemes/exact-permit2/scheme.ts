import { evmFateReader } from "../../evm-fate.ts";
import { PaymentRejected } from "../../codec.ts";
import { matchExact } from "../../exact.ts";
import type { X402Scheme } from "../../scheme.ts";
import type { PaymentPayloadV2 } from "../../codec.ts";
import type { RequirementsV2 } from "../../requirements.ts";
import { bindExactPermit2 } from "./bind.ts";
import { exactPermit2FateOf } from "./fate.ts";
import { exactPermit2Terms } from "./terms.ts";

/** `exact` in a token the route names with `assetTransferMethod: "permit2"`: a Permit2 authorization, v2 only. */
export const exactPermit2: X402Scheme = {
  terms: exactPermit2Terms,
  takes: { scheme: "exact", namespace: "eip155", payload: (inner) => "permit2Authorization" in inner },
  bind(decoded, route, nowSeconds, parts) {
    if (decoded.version !== 2) throw new PaymentRejected("invalid_payload", "A Permit2 payment is an x402 v2 payment");
    const { requirement, ...common } = matchExact(decoded, route, exactPermit2Terms, parts);
    if (requirement.extra?.assetTransferMethod !== "permit2")
      throw new PaymentRejected(
        "invalid_payload",
        "An EVM payment carries an EIP-3009 authorization and its signature",
      );
    return bindExactPermit2(
      decoded.payload as PaymentPayloadV2,
      requirement as RequirementsV2,
      nowSeconds,
      common,
      parts.clockSkewSeconds,
    );
  },
  fate: ({ logWindow }) => evmFateReader(exactPermit2FateOf, logWindow),
};
