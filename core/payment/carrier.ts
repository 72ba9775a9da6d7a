import type { Outcome, PaymentCredentials } from "../runtime/call.ts";

/** Where a way to pay carries its credentials and answers, in each transport: what the request side asks of it. */
export interface CredentialCarrier {
  /** The request headers that carry its credentials (lower case): a call's credentials are named by them. */
  requestHeaders: readonly string[];
  /** The response headers it answers with, exposed to browsers. */
  responseHeaders: readonly string[];
  /** Its credentials in an MCP request's `_meta`, named as its request headers; undefined when it has none there. */
  fromMeta?(meta: Record<string, unknown>): PaymentCredentials | undefined;
  /** How it pays over MCP, when it is a way to pay there. */
  mcp?: McpPayment;
}

/** A way to pay over MCP: where its payment and its receipt travel in `_meta`, and its answers as tool results. */
export interface McpPayment {
  /** The `_meta` key of its payment in a call, and of its receipt in a paid call's result. */
  paymentKey: string;
  receiptKey: string;
  /** Its receipt among a paid answer's headers, as the value of `_meta[receiptKey]`; undefined without one. */
  receiptOf(headers: Record<string, string>): unknown;
  /** Its 402 as a tool result's structuredContent; undefined for a 402 that is not its own. */
  challengeOf(outcome: Outcome): Record<string, unknown> | undefined;
}
