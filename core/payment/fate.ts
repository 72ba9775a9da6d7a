import type { PendingSettlement } from "./ledger.ts";

/** What the chain says became of a recorded payment (a settlement whose reply was lost, a call whose process died). */
export type Fate =
  /** Not used: it may still move until it expires. */
  | { state: "unused" }
  | { state: "moved"; transaction: string }
  | { state: "not-moved"; why: string; transaction: string }
  /** Not used, and it can never be any more. */
  | { state: "expired" }
  /** Used, but its use not seen: kept for a later pass or an operator. */
  | { state: "unseen"; why: string };

/** Judges the records of one pass over one chain. */
export type Judge = (record: PendingSettlement) => Promise<Fate>;

/** A scheme's reader of what became of its recorded payments on their chain. */
export interface FateReader {
  /** Starts a pass over the chain at `rpcUrl`: what every record of the pass is judged from is read once (its newest block). */
  pass(rpcUrl: string): Promise<Judge>;
}

/** The fate reader of the scheme that recorded a payment (the rail's table); undefined when none of its schemes did. */
export type FateTable = (record: PendingSettlement) => FateReader | undefined;
