import type { PaymentCredentials } from "../runtime/call.ts";

/** Where a way to pay carries its credentials and answers, in each transport: what the request side asks of it. */
export interface CredentialCarrier {
  /** The request headers that carry its credentials (lower case): a call's credentials are named by them. */
  requestHeaders: readonly string[];
  /** The response headers it answers with, exposed to browsers. */
  responseHeaders: readonly string[];
  /** Its credentials in an MCP request's `_meta`, named as its request headers; undefined when it has none there. */
  fromMeta?(meta: Record<string, unknown>): PaymentCredentials | undefined;
}
