import { PaymentRejected, type DecodedPayment } from "./codec.ts";
import type { BoundCommon, SchemeTerms } from "./bound.ts";
import { networkOfV1Name, type RequirementsV1, type RequirementsV2, type RouteRequirements } from "./requirements.ts";

/** What an `exact` payment is bound to before its scheme reads its payload: our requirement, on its network. */
export type ExactCommon = Pick<BoundCommon, "version" | "paymentId" | "payload" | "network"> & {
  requirement: RequirementsV1 | RequirementsV2;
};

/**
 * The route's own `exact` requirement a payment accepted (v2: the network, asset, amount and payee it names; v1: its
 * network), compared in the scheme's spelling of an address; nothing the client echoes is trusted.
 */
export function matchExact(
  decoded: DecodedPayment,
  route: RouteRequirements,
  terms: SchemeTerms,
  common: Pick<BoundCommon, "version" | "paymentId" | "payload">,
): ExactCommon {
  if (decoded.version === 1) {
    const matched = route.v1.find((r) => r.network === decoded.payload.network);
    if (!matched) throw new PaymentRejected("invalid_network", `Network ${decoded.payload.network} is not accepted`);
    return { ...common, requirement: matched, network: networkOfV1Name(matched.network)! };
  }
  const { accepted } = decoded.payload;
  const byNetwork = route.v2.filter((r) => r.network === accepted.network);
  if (!byNetwork.length) throw new PaymentRejected("invalid_network", `Network ${accepted.network} is not accepted`);
  const eq = (a: string, b: string) => terms.canonical(a) === terms.canonical(b);
  const matched = byNetwork.find((r) => eq(r.asset, accepted.asset));
  if (!matched)
    throw new PaymentRejected("invalid_asset", `Asset ${accepted.asset} is not accepted on ${accepted.network}`);
  if (accepted.amount !== matched.amount) {
    throw new PaymentRejected(
      "invalid_exact_evm_payload_authorization_value_mismatch",
      `This route costs ${matched.amount}, not ${accepted.amount}`,
    );
  }
  if (!eq(accepted.payTo, matched.payTo))
    throw new PaymentRejected("invalid_exact_evm_recipient_mismatch", "The payment is to another payee");
  return { ...common, requirement: matched, network: matched.network };
}
