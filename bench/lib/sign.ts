import { x402Client, x402HTTPClient } from "@x402/core/client";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";

/**
 * The real v2 client (@x402/core + @x402/evm), as @x402/fetch uses it, with spend controls off because the
 * devnet token is not one of the client's default assets.
 */
export function payerClient(privateKey: `0x${string}`) {
  const client = new x402Client().register("eip155:*", new ExactEvmScheme(privateKeyToAccount(privateKey)));
  client.setSpendControls(false);
  return new x402HTTPClient(client);
}

export type PayerClient = ReturnType<typeof payerClient>;

/** Reads the v2 `PAYMENT-REQUIRED` of a route from its 402, as a client would. */
export async function paymentRequiredOf(client: PayerClient, url: string): Promise<PaymentRequired> {
  const res = await fetch(url);
  const body = await res.json().catch(() => undefined);
  if (res.status !== 402) throw new Error(`${url} answered ${res.status}, not 402`);
  return client.getPaymentRequiredResponse((name) => res.headers.get(name), body);
}

/** Signs `count` payments (each a fresh EIP-3009 authorization with its own nonce). */
export async function signPayments(
  client: PayerClient,
  required: PaymentRequired,
  count: number,
): Promise<PaymentPayload[]> {
  const payloads: PaymentPayload[] = [];
  for (let i = 0; i < count; i++) payloads.push(await client.createPaymentPayload(required));
  return payloads;
}

/** The `PAYMENT-SIGNATURE` header value of each payload. */
export function toPaymentHeaders(client: PayerClient, payloads: PaymentPayload[]): string[] {
  return payloads.map((p) => Object.values(client.encodePaymentSignatureHeader(p))[0]);
}
