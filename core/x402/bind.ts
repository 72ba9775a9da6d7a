import { PaymentRejected, type Authorization, type DecodedPayment } from "./codec.ts";
import { networkOfV1Name, type RequirementsV1, type RequirementsV2, type RouteRequirements } from "./requirements.ts";
import { isLongSignature, recoverAuthorizer } from "./signature.ts";

export interface BoundPayment {
  version: 1 | 2;
  /** The server's own requirement this payment matched, in the payload's version. */
  requirement: RequirementsV1 | RequirementsV2;
  network: string;
  authorization: Authorization;
  /** What goes to the facilitator: the payload exactly as the client sent it. */
  payload: Record<string, unknown>;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Binds a decoded payment to the requirements this server built for the route; nothing the client
 * echoes is trusted. Then checks the time window and the signature locally, before any RPC.
 */
export function bindPayment(decoded: DecodedPayment, route: RouteRequirements, nowSeconds: number): BoundPayment {
  const { authorization, signature } = decoded.payload.payload;
  let bound: BoundPayment;
  if (decoded.version === 2) {
    const accepted = decoded.payload.accepted;
    if (decoded.payload.resource && decoded.payload.resource.url !== route.resource.url) {
      throw new PaymentRejected("resource_mismatch", `This payment is for ${decoded.payload.resource.url}, not ${route.resource.url}`);
    }
    const byNetwork = route.v2.filter((r) => r.network === accepted.network);
    if (accepted.scheme !== "exact") throw new PaymentRejected("unsupported_scheme", `Scheme ${accepted.scheme} is not accepted`);
    if (!byNetwork.length) throw new PaymentRejected("invalid_network", `Network ${accepted.network} is not accepted`);
    const requirement = byNetwork.find((r) => same(r.asset, accepted.asset));
    if (!requirement) throw new PaymentRejected("invalid_asset", `Asset ${accepted.asset} is not accepted on ${accepted.network}`);
    if (accepted.amount !== requirement.amount) {
      throw new PaymentRejected("invalid_exact_evm_payload_authorization_value_mismatch", `This route costs ${requirement.amount}, not ${accepted.amount}`);
    }
    if (!same(accepted.payTo, requirement.payTo)) throw new PaymentRejected("invalid_exact_evm_recipient_mismatch", "The payment is to another payee");
    bound = { version: 2, requirement, network: requirement.network, authorization, payload: decoded.raw };
  } else {
    const p = decoded.payload;
    if (p.scheme !== "exact") throw new PaymentRejected("unsupported_scheme", `Scheme ${p.scheme} is not accepted`);
    const requirement = route.v1.find((r) => r.network === p.network);
    if (!requirement) throw new PaymentRejected("invalid_network", `Network ${p.network} is not accepted`);
    bound = { version: 1, requirement, network: networkOfV1Name(requirement.network)!, authorization, payload: decoded.raw };
  }

  const r = bound.requirement;
  const amount = "amount" in r ? r.amount : r.maxAmountRequired;
  if (authorization.value !== amount) {
    throw new PaymentRejected("invalid_exact_evm_payload_authorization_value_mismatch", `The authorization moves ${authorization.value}, this route costs ${amount}`);
  }
  if (!same(authorization.to, r.payTo)) throw new PaymentRejected("invalid_exact_evm_recipient_mismatch", "The authorization pays another address");
  if (BigInt(authorization.validBefore) < BigInt(nowSeconds + 6)) {
    throw new PaymentRejected("invalid_exact_evm_payload_authorization_valid_before", "The authorization has expired");
  }
  if (BigInt(authorization.validAfter) > BigInt(nowSeconds)) {
    throw new PaymentRejected("invalid_exact_evm_payload_authorization_valid_after", "The authorization is not valid yet");
  }
  if (!isLongSignature(signature)) {
    const domain = { name: r.extra.name, version: r.extra.version, chainId: Number(bound.network.split(":")[1]), verifyingContract: r.asset as `0x${string}` };
    const signer = recoverAuthorizer(domain, authorization, signature);
    if (!signer || !same(signer, authorization.from)) throw new PaymentRejected("invalid_exact_evm_signature", "The signature does not match the payer");
  }
  return bound;
}
