export interface VerifyResult {
  isValid: boolean;
  invalidReason?: string;
  invalidMessage?: string;
  payer?: string;
}

export interface SettleResult {
  success: boolean;
  errorReason?: string;
  errorMessage?: string;
  transaction: string;
  network: string;
  payer?: string;
}

/** A settler's transactions waiting to be sent or mined (readiness shows a stall). */
export interface SettlementBacklog {
  pending: number;
  /** How long the oldest of them has waited, in ms (0 when none). */
  oldestMs: number;
  oldestNonce?: number;
}

/** What the gate needs of a facilitator, in-process or remote, whatever the protocol of the payloads it takes. */
export interface Facilitator {
  verify(payload: object, requirements: object): Promise<VerifyResult>;
  settle(payload: object, requirements: object): Promise<SettleResult>;
  /**
   * What the payer of `payload` can pay now (its token balance; for a Permit2 permit, no more than Permit2 may
   * take), or undefined when this facilitator cannot tell. Offered by the facilitators whose transactions we pay
   * for, so the gate never has them send one the payer cannot cover (reservations.ts).
   */
  funds?(payload: object, requirements: object): Promise<bigint | undefined>;
  backlog?(): SettlementBacklog;
}
