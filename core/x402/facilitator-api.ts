import type { RelayerBacklog } from "./relayer.ts";

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

/** What the gate needs of a facilitator, in-process or remote; both speak v1 and v2 payloads. */
export interface Facilitator {
  verify(payload: object, requirements: object): Promise<VerifyResult>;
  settle(payload: object, requirements: object): Promise<SettleResult>;
  /**
   * What the payer of `payload` can pay now (its token balance; for a Permit2 permit, no more than Permit2 may
   * take), or undefined when this facilitator cannot tell. Offered by the facilitators whose transactions we pay
   * for, so the gate never has them send one the payer cannot cover (reservations.ts).
   */
  funds?(payload: object, requirements: object): Promise<bigint | undefined>;
  /** A local relayer's settlements waiting to be sent or mined (readiness shows a stall). */
  backlog?(): RelayerBacklog;
}
