import { createHash } from "node:crypto";
import { OFFER_RECEIPT, createJWS, type JWSSignedReceipt, type ReceiptPayload } from "@x402/extensions/offer-receipt";
import type { Call, Outcome } from "../runtime/call.ts";
import { decodeHeader, stableJson } from "../shared.ts";
import type { ServiceKey } from "./key.ts";

import { receiptHeader } from "./header.ts";

/**
 * What a receipt says: the extension's receipt fields (`version`, `network`, `resourceUrl`, `payer`, `issuedAt`,
 * `transaction`) and, as further fields of the same signed JWS payload, what the extension's lacks.
 */
export interface Receipt extends ReceiptPayload {
  /** `GET /v1/hash`. */
  route: string;
  /** SHA-256 (hex) of `<method> <path> <input as canonical JSON>`: the request, as the ledger fingerprints it. */
  requestHash: string;
  /** The route's price for this request, in USDC atomic units (six decimals). */
  price: string;
  /** What was charged, in the same units: less than the price when the call paid as used. */
  charged: string;
  /** SHA-256 (hex) of the body's bytes as sent before any Content-Encoding (the identity encoding). */
  bodySha256: string;
  /** A voucher's channel, when a voucher paid. */
  channel?: string;
}

export const sha256Hex = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** The request a receipt names: the same fingerprint the ledger keeps for a payment's request. */
export const requestHashOf = (call: Pick<Call, "endpoint" | "input">) =>
  sha256Hex(`${call.endpoint.method} ${call.endpoint.path} ${stableJson(call.input)}`);

/** The bytes an outcome's body goes out as, over HTTP and as an MCP tool result's text. */
export const bodyBytesOf = (outcome: Outcome) => Buffer.from(JSON.stringify(outcome.body));

/** What a paid answer's payment says: its response header's name and JSON (v2's, or v1's); a credit code's has none. */
export interface PaidSettlement {
  header: "payment-response" | "x-payment-response";
  settlement: Record<string, unknown> | undefined;
}

export function settlementOf(outcome: Outcome): PaidSettlement {
  const header = outcome.headers["payment-response"] ? "payment-response" : "x-payment-response";
  const value = outcome.headers[header];
  return { header, settlement: value ? decodeHeader(value) : undefined };
}

/** The channel a voucher's settlement names (`batch-settlement` reports its channel's state), else undefined. */
function channelOf(settlement: Record<string, unknown>): string | undefined {
  const state = (settlement.extra as { channelState?: { channelId?: unknown } } | undefined)?.channelState;
  return typeof state?.channelId === "string" ? state.channelId : undefined;
}

/**
 * A paid 2xx with its signed receipt: in the `PAYMENT-RECEIPT` header, and in the extension's place of
 * `PAYMENT-RESPONSE` (or v1's `X-PAYMENT-RESPONSE`) when the payment has one (a credit code has none).
 */
export async function withReceipt(
  key: ServiceKey,
  outcome: Outcome,
  call: Call,
  price: string,
  { header: responseHeader, settlement }: PaidSettlement,
): Promise<Outcome> {
  const credit = outcome.charged?.startsWith("credit:");
  const channel = settlement ? channelOf(settlement) : undefined;
  const transaction = (settlement?.transaction as string | undefined) || (channel ? `channel:${channel}` : undefined);
  const receipt: Receipt = {
    version: 1,
    network: credit ? "credit" : String(settlement?.network ?? "unknown"),
    resourceUrl: call.resource,
    payer: outcome.payer ?? (credit ? "credit-code" : "unknown"),
    issuedAt: Math.floor((outcome.paidAt ?? Date.now()) / 1000),
    ...(transaction ? { transaction } : {}),
    route: `${call.endpoint.method} ${call.endpoint.path}`,
    requestHash: requestHashOf(call),
    price,
    charged: credit ? outcome.charged!.slice("credit:".length) : (outcome.charged ?? price),
    bodySha256: sha256Hex(bodyBytesOf(outcome)),
    ...(channel ? { channel } : {}),
  } as Receipt;
  const signed: JWSSignedReceipt = { format: "jws", signature: await createJWS(receipt, key.signer) };
  const headers: Record<string, string> = { ...outcome.headers, [receiptHeader]: signed.signature };
  if (settlement) {
    const extensions = { ...(settlement.extensions as object), [OFFER_RECEIPT]: { info: { receipt: signed } } };
    headers[responseHeader] = Buffer.from(JSON.stringify({ ...settlement, extensions })).toString("base64");
  }
  return { ...outcome, headers };
}
