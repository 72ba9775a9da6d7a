import type { Endpoint } from "../endpoint.ts";

/** A document a rail publishes whole at its own path (x402: its manifest, `/.well-known/x402`). */
export interface RailDocument {
  path: string;
  /** Its line in llms.txt ("x402 manifest"); unlisted without one. */
  label?: string;
  /** Built once, from the loaded endpoints. */
  build(endpoints: readonly Endpoint[]): unknown;
}

/** The label values of one payment series: how a call pays, as the rail names it. */
export interface PaymentSeries {
  protocol: string;
  scheme: string;
  network: string;
}

/**
 * What a rail tells the world about how it is paid, beside its 402: the documents it publishes itself, its parts
 * of the documents the runtime writes for every rail (OpenAPI, llms.txt, the docs page), what an MCP answer gives
 * of a paid route, and the label values its payments are counted under. The runtime and MCP read a rail only here.
 */
export interface Discovery {
  /** Every option in one line of prose ("Pay on any of: ..."). */
  optionsLine: string;
  documents: readonly RailDocument[];
  openApi: {
    /** Its entries of `components.securitySchemes` and `components.schemas`. */
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, unknown>;
    /** Its entries of a paid operation's `x-payment-info.protocols`. */
    protocols(endpoint: Endpoint): Record<string, unknown>[];
    /** A paid operation's 402 response. */
    challenge(endpoint: Endpoint): Record<string, unknown>;
  };
  mcp: {
    /** What a client pays a paid route with, as describe_endpoint lists it. */
    accepts(endpoint: Endpoint): unknown[];
    /** The route's payment requirements as an MCP tool result carries them (a payment refused as used, say). */
    required(endpoint: Endpoint): Record<string, unknown>;
  };
  /** The series its payments are counted under, at zero from boot, and the networks whose vouchers are counted. */
  metrics: { payments: readonly PaymentSeries[]; vouchers: readonly string[] };
}
