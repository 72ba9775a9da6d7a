import type { BoundCommon } from "./bound.ts";
import { PaymentRejected, type DecodedPayment } from "./codec.ts";
import { paymentIdOf } from "./payment-id.ts";
import { networkOfV1Name, type RouteRequirements } from "./requirements.ts";
import { schemeTaking } from "./schemes.ts";

/** A payment bound to our own requirements by its scheme (its folder's binding adds what its settlement reads). */
export type BoundPayment = BoundCommon;

/** How far a payer's clock may run ahead of ours when it sets `validBefore`. */
export const clockSkewSeconds = 60;

/**
 * Binds a decoded payment to the requirements this server built for the route, by the scheme of the table that
 * takes it; nothing the client echoes is trusted. Each scheme then checks the time window and the signature
 * locally, before any RPC.
 */
export async function bindPayment(
  decoded: DecodedPayment,
  route: RouteRequirements,
  nowSeconds: number,
): Promise<BoundPayment> {
  // The identifier first: its format is fixed (ours to check, whatever schema the client sends along).
  const paymentId = decoded.version === 2 ? paymentIdOf(decoded.payload.extensions) : undefined;
  const { payload } = decoded;
  const accepted =
    decoded.version === 2
      ? decoded.payload.accepted
      : {
          scheme: decoded.payload.scheme,
          network: networkOfV1Name(decoded.payload.network) ?? decoded.payload.network,
        };
  if (decoded.version === 2 && decoded.payload.resource && decoded.payload.resource.url !== route.resource.url) {
    throw new PaymentRejected(
      "resource_mismatch",
      `This payment is for ${decoded.payload.resource.url}, not ${route.resource.url}`,
    );
  }
  const scheme = schemeTaking(decoded.version, accepted.scheme, accepted.network, payload.payload);
  return scheme.bind(decoded, route, nowSeconds, {
    version: decoded.version,
    paymentId,
    payload: decoded.raw,
    clockSkewSeconds,
  });
}
