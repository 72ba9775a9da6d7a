import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Outcome } from "../runtime/call.ts";
import { challengeInMcp, receiptMetaOf } from "../rails.ts";

/**
 * An outcome of `invoke()` as a tool result, as the x402 MCP convention has it. 200: the `{meta, data}`
 * envelope as `structuredContent` and as text, the settlement receipt in `_meta`. 402, and a payment refused
 * for any reason (a reused one among them): the v2 PaymentRequired, with the reason, as `structuredContent`
 * and as the text itself, so a client that reads only the text can pay. Any other failure: the HTTP error body as text.
 */
export function toToolResult(outcome: Outcome, requirementsOf: () => Record<string, unknown>): CallToolResult {
  const challenge = outcome.status === 402 ? challengeInMcp(outcome) : undefined;
  if (challenge)
    return {
      isError: true,
      structuredContent: challenge,
      content: [{ type: "text", text: JSON.stringify(challenge) }],
    };
  const error = (outcome.body as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
  if (outcome.status === 409 && error?.code === "payment_already_used") {
    const required = {
      ...requirementsOf(),
      error: error.message,
      reason: error.code,
      ...(isRecord(error.details) ? error.details : {}),
    };
    return { isError: true, structuredContent: required, content: [{ type: "text", text: JSON.stringify(required) }] };
  }
  const text = JSON.stringify(outcome.body);
  if (outcome.status >= 400) return { isError: true, content: [{ type: "text", text }] };
  const receipts = receiptMetaOf(outcome.headers);
  return {
    content: [{ type: "text", text }],
    ...(isRecord(outcome.body) ? { structuredContent: outcome.body } : {}),
    ...(receipts ? { _meta: receipts } : {}),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
