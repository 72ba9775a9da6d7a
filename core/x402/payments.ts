import type { Logger } from "pino";
import type { Config } from "../runtime/config.ts";
import { createClosedGate, type PaymentGate } from "./gate.ts";
import type { PaymentOption } from "./requirements.ts";

/** The payment options the configuration describes (production: Base USDC). */
export function configuredOptions(config: Config, payTo: `0x${string}`): PaymentOption[] {
  const p = config.payment;
  return [{
    network: p.network as `eip155:${number}`,
    asset: p.asset,
    payTo,
    decimals: 6,
    extra: { name: p.assetName, version: p.assetVersion },
    maxTimeoutSeconds: p.maxTimeoutSeconds,
  }];
}

export async function createPayments(config: Config, log: Logger): Promise<PaymentGate> {
  const payTo = config.payment.payTo ?? "0x0000000000000000000000000000000000000000";
  log.warn("no facilitator yet: every paid route answers 402");
  return createClosedGate(configuredOptions(config, payTo), config.baseUrl);
}
