/** The facilitator interface is the payment core's (core/payment/facilitator.ts); x402's facilitators implement it. */
export type { Facilitator, SettleResult, VerifyResult } from "../payment/facilitator.ts";
