import type { FateReader } from "../payment/fate.ts";
import type { SchemeTerms } from "./bound.ts";

export interface LogWindow {
  /** Blocks per eth_getLogs request: providers cap the range of one request. */
  chunkBlocks: bigint;
  /** How far back from the newest block a payment's use is looked for. */
  maxBlocks: bigint;
}

export const defaultLogWindow: LogWindow = { chunkBlocks: 2_000n, maxBlocks: 100_000n };

/** What a scheme's fate reader is built with. */
export interface FateSettings {
  logWindow: LogWindow;
}

/**
 * One scheme of the x402 rail, as its folder exports it (`core/x402/schemes/<scheme>/scheme.ts`) and the table
 * (`core/x402/schemes.ts`) registers it. Its heavy parts load on first use, so a service that never sees the scheme
 * never loads its packages.
 */
export interface X402Scheme {
  terms: SchemeTerms;
  /** How reconciliation reads what became of a payment of this scheme whose settlement's reply was lost. */
  fate(settings: FateSettings): FateReader;
}
