import type { Outcome, PaymentCredentials } from "./runtime/call.ts";
import { x402Carrier } from "./x402/carrier.ts";
import type { CredentialCarrier } from "./payment/carrier.ts";
import { creditCarrier } from "./payment/credits.ts";
import { signInCarrier } from "./sign-in/carrier.ts";
import { receiptHeader } from "./receipts/header.ts";
import { createClosedGate, type PaymentGate } from "./payment/gate.ts";
import { x402Offers } from "./x402/offers.ts";
import type { Config } from "./runtime/config.ts";

/** The ways to pay this service registers, and the way in to a wallet's own data: a second protocol is one more entry. */
const carriers: readonly CredentialCarrier[] = [x402Carrier, creditCarrier, signInCarrier];

export const paymentRequestHeaders = carriers.flatMap((c) => c.requestHeaders);
/** What the ways to pay answer with, and the signed receipt of a paid answer, whichever way paid. */
export const paymentResponseHeaders = [...carriers.flatMap((c) => c.responseHeaders), receiptHeader];

/** The payment credentials among a request's headers, named by their header; undefined when it carries none. */
export function credentialsIn(headers: Headers): PaymentCredentials | undefined {
  let found: Record<string, string> | undefined;
  for (const name of paymentRequestHeaders) {
    const value = headers.get(name);
    if (value !== null) (found ??= {})[name] = value;
  }
  return found;
}

/** The payment credentials in an MCP request's `_meta`, read by the first way to pay that finds its own there. */
export function credentialsInMeta(meta: Record<string, unknown> | undefined): PaymentCredentials | undefined {
  if (!meta) return undefined;
  for (const carrier of carriers) {
    const found = carrier.fromMeta?.(meta);
    if (found) return found;
  }
  return undefined;
}

/** The ways to pay over MCP: where their payments and receipts travel in `_meta`. */
export const mcpPayments = carriers.flatMap((c) => (c.mcp ? [c.mcp] : []));

/** Their `_meta` keys of a payment (`paymentKey`) or a receipt (`receiptKey`), as the tools' texts name them. */
export const mcpMetaKeys = (key: "paymentKey" | "receiptKey") =>
  mcpPayments.map((p) => `_meta["${p[key]}"]`).join(" or ");

/** A paid answer's receipts as MCP `_meta` entries, each under its way's key; undefined when it carries none. */
export function receiptMetaOf(headers: Record<string, string>): Record<string, unknown> | undefined {
  let meta: Record<string, unknown> | undefined;
  for (const way of mcpPayments) {
    const receipt = way.receiptOf(headers);
    if (receipt !== undefined) (meta ??= {})[way.receiptKey] = receipt;
  }
  return meta;
}

/** A 402 as an MCP tool result's structuredContent, read by the way to pay whose 402 it is. */
export function challengeInMcp(outcome: Outcome): Record<string, unknown> | undefined {
  for (const way of mcpPayments) {
    const challenge = way.challengeOf(outcome);
    if (challenge) return challenge;
  }
  return undefined;
}

/**
 * The configured network and token offered, taken by no one: every paid call is answered 402. What `npm run smoke`
 * boots beside its calls, which run as already paid; the payee is the zero address when none is configured.
 */
export function unpaidGate(config: Config): PaymentGate {
  return createClosedGate(
    x402Offers(
      [
        {
          network: config.payment.network,
          asset: config.payment.asset,
          payTo: config.payment.payTo ?? "0x0000000000000000000000000000000000000000",
          decimals: 6,
          extra: { name: config.payment.assetName, version: config.payment.assetVersion },
          maxTimeoutSeconds: config.payment.maxTimeoutSeconds,
        },
      ],
      config.baseUrl,
    ),
  );
}
