import type { Endpoint } from "../endpoint.ts";
import type { Unit } from "./effects.ts";

/**
 * Payment credentials as they arrived, whatever the transport, each named by the request header that carries it
 * over HTTP (MCP `_meta` is read into the same names): what the registered ways to pay read (core/rails.ts).
 */
export type PaymentCredentials = Readonly<Record<string, string>>;

export interface Call {
  endpoint: Endpoint;
  /** Raw input: the coerced query of a GET, the JSON body of a POST, MCP tool arguments. */
  input: unknown;
  /** Absolute URL of the route: the `resource` a payment is bound to. */
  resource: string;
  requestId: string;
  clientIp: string;
  /** The request's headers, when the call came over HTTP. */
  headers?: Headers;
  payment?: PaymentCredentials;
  /** The wallet proven by a sign-in (core/sign-in), on a route that reads the signing wallet's own data. */
  wallet?: string;
  /** Set inside a call that was already paid as a whole (a batch item, a bundle part). */
  prepaid?: { payer?: string };
  /** The caller's cancellation, asked for only by a call that reaches its handler (an HTTP request makes its AbortController then). */
  signal?: () => AbortSignal;
  /** A part's reservations and writes (`ctx.reserve`, `ctx.afterPayment`): kept or released with its parent's. */
  unit?: Unit;
}

export interface Outcome {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** For the request log. */
  payer?: string;
  charged?: string;
  /** A pay-as-used call's report of what it used (USDC atomic units), when below its price. */
  used?: string;
  /**
   * When its payment became final (ms since the epoch): its receipt is dated by it, so the same answer sent again
   * to a retry carries the same receipt.
   */
  paidAt?: number;
}
