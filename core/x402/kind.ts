import type { PaymentKind } from "../payment/observe.ts";
import { networkOfV1Name, type PaymentOption } from "./requirements.ts";

const schemes = new Set(["exact", "upto", "batch-settlement"]);

/**
 * How an x402 payment pays, in label values the service knows (never a caller's free text), from the JSON its
 * header carried (undefined when it carried none that could be read).
 */
export function x402KindOf(raw: unknown, version: 1 | 2, options: readonly PaymentOption[]): PaymentKind {
  const terms = (version === 2 ? (raw as { accepted?: unknown } | undefined)?.accepted : raw) as
    | { scheme?: unknown; network?: unknown }
    | undefined;
  const network = version === 2 ? terms?.network : networkOfV1Name(String(terms?.network));
  return {
    protocol: version === 2 ? "x402v2" : "x402v1",
    scheme: schemes.has(terms?.scheme as string) ? (terms?.scheme as string) : "other",
    network: options.some((o) => o.network === network) ? (network as string) : "other",
  };
}
