import * as v from "valibot";
import type { Address } from "viem";
import type { Upstream } from "../../core/endpoint.ts";
import { ServiceError, upstreamFailed } from "../../core/runtime/errors.ts";
import { relayerOrder, type BetTypedData } from "./_typed-data.ts";

/** Toolkit `CreateBetResponse`: the order id and its first state; errors carry `errorMessage` and `error`. */
interface CreateBetResponse {
  id?: string;
  state?: string;
  errorMessage?: string;
  error?: string;
}
const o = v.optional;
/** What the code reads of the relayer's answer to an order. */
const CreateBetAnswer = v.object({
  id: o(v.string()),
  state: o(v.string()),
  errorMessage: o(v.string()),
  error: o(v.string()),
});

/**
 * Posts the signed order to Azuro's relayer. A refusal (4xx, or an order born `Rejected`) becomes our 422
 * with the relayer's own reason, so the caller knows what to fix; a relayer outage stays a 502.
 */
export async function forwardOrder(
  relayer: Upstream,
  environment: string,
  bettor: Address,
  typed: BetTypedData,
  signature: string,
) {
  let answer: CreateBetResponse;
  try {
    answer = await relayer.json("/bet/orders/ordinar", CreateBetAnswer, {
      method: "POST",
      body: relayerOrder(environment, bettor, typed, signature),
      keepErrorBody: true,
    });
  } catch (error) {
    const details =
      error instanceof ServiceError ? (error.details as { status?: number; body?: unknown } | undefined) : undefined;
    if (details?.status && details.status >= 400 && details.status < 500) throw rejected(details.body);
    throw error;
  }
  if (answer.state === "Rejected" || answer.state === "Canceled") throw rejected(answer);
  if (typeof answer.id !== "string" || answer.id === "" || typeof answer.state !== "string") {
    throw upstreamFailed("azuro-relayer", "azuro-relayer answered no order id");
  }
  return { id: answer.id, state: answer.state };
}

function rejected(body: unknown): ServiceError {
  const reply = (typeof body === "object" && body !== null ? body : {}) as CreateBetResponse;
  const reason =
    reply.errorMessage || reply.error || (typeof body === "string" && body.length <= 300 ? body : "no reason given");
  return new ServiceError(422, "relayer_rejected", `Azuro's relayer refused the order: ${reason}`, {
    error: reply.error,
    errorMessage: reply.errorMessage,
  });
}
