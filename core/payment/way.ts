import type { HeldChannel, Price } from "../endpoint.ts";
import type { Call, Outcome } from "../runtime/call.ts";
import type { Commit, PaymentTerms } from "./gate.ts";
import type { PaymentKind } from "./observe.ts";

/** The call's work as a gate runs it once the payment is good: the handler, for `payer`. */
export type Work = (payer?: string, terms?: PaymentTerms) => Promise<Outcome>;

/** A payment a way took: how it pays (the counts' labels), and paying it around the call's work and effects. */
export interface TakenPayment {
  kind: PaymentKind;
  pay(work: Work, commit: Commit | undefined): Promise<Outcome>;
}

/**
 * A way to pay registered into the paid gate (x402's vouchers): it takes the calls whose credentials are its own and
 * runs them its way, and the gate counts them and answers them as every other paid call (receipts, history).
 */
export interface PaymentWay {
  take(call: Call, price: Price | undefined): TakenPayment | undefined;
  /** The channels this way keeps per payer (vouchers'), that `wallet` pays from. */
  channels?(wallet: string): Promise<HeldChannel[]>;
}
