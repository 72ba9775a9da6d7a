import type { FateTable } from "../payment/fate.ts";
import type { PendingSettlement } from "../payment/ledger.ts";
import { PaymentRejected } from "./codec.ts";
import { defaultLogWindow, type LogWindow, type X402Scheme } from "./scheme.ts";
import { exactEip3009 } from "./schemes/exact-eip3009/scheme.ts";
import { exactPermit2 } from "./schemes/exact-permit2/scheme.ts";
import { exactSvm } from "./schemes/exact-svm/scheme.ts";
import { upto } from "./schemes/upto/scheme.ts";

/** The x402 rail's schemes: a scheme folder registers here, once, and nowhere else. */
export const x402Schemes: readonly X402Scheme[] = [exactPermit2, exactEip3009, upto, exactSvm];

const byX402Scheme = new Map<string, X402Scheme[]>();
for (const s of x402Schemes) byX402Scheme.set(s.takes.scheme, [...(byX402Scheme.get(s.takes.scheme) ?? []), s]);

/**
 * The scheme that binds a payment which accepted x402 `scheme` on `network` (CAIP-2) with this `inner` payload:
 * none taking that scheme in that version is `unsupported_scheme`, none on that network's namespace `invalid_network`.
 */
export function schemeTaking(version: 1 | 2, scheme: string, network: string, inner: object): X402Scheme {
  const named = (byX402Scheme.get(scheme) ?? []).filter((s) => version === 2 || s.takes.v1);
  if (!named.length) throw new PaymentRejected("unsupported_scheme", `Scheme ${scheme} is not accepted`);
  const taking = named.find((s) => network.startsWith(`${s.takes.namespace}:`) && (s.takes.payload?.(inner) ?? true));
  if (!taking) throw new PaymentRejected("invalid_network", `Network ${network} is not accepted`);
  return taking;
}

/**
 * Records written before they named their scheme: the upto and Solana ones carry their own fields. Kept until the
 * last of them has expired (a pending record waits for its chain; an in-flight one an hour past its authorization).
 */
const unnamed = (r: PendingSettlement) => (r.svm ? exactSvm : r.permit2 ? upto : exactEip3009).terms.name;

/** Each recorded payment's fate reader, by the scheme that recorded it (reconcile.ts). */
export function x402Fates(logWindow?: Partial<LogWindow>): FateTable {
  const settings = { logWindow: { ...defaultLogWindow, ...logWindow } };
  const readers = new Map(x402Schemes.map((s) => [s.terms.name, s.fate(settings)]));
  return (record) => readers.get(record.scheme ?? unnamed(record));
}
