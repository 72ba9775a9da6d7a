import type { FateReader } from "../payment/fate.ts";
import type { MaybePromise } from "../runtime/maybe.ts";
import type { BoundCommon, SchemeTerms } from "./bound.ts";
import type { DecodedPayment } from "./codec.ts";
import type { RouteRequirements } from "./requirements.ts";

export interface LogWindow {
  /** Blocks per eth_getLogs request: providers cap the range of one request. */
  chunkBlocks: bigint;
  /** How far back from the newest block a payment's use is looked for. */
  maxBlocks: bigint;
}

export const defaultLogWindow: LogWindow = { chunkBlocks: 2_000n, maxBlocks: 100_000n };

/** What every binding is given beside the payment: what bind.ts read of it, and how far a payer's clock may run ahead. */
export type BindingParts = Pick<BoundCommon, "version" | "paymentId" | "payload"> & { clockSkewSeconds: number };

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
  /**
   * The payments it binds: the x402 `scheme` they accepted, on networks of one CAIP-2 namespace, in v1 payloads too
   * when `v1`. Several folders may take one x402 scheme on one namespace (exact: EIP-3009, Permit2): the first in
   * the table whose `payload` test passes binds it.
   */
  takes: { scheme: string; namespace: string; v1?: true; payload?: (inner: object) => boolean };
  /** Binds a decoded payment to our route's requirement of this scheme (bind.ts has chosen the scheme). */
  bind(
    decoded: DecodedPayment,
    route: RouteRequirements,
    nowSeconds: number,
    parts: BindingParts,
  ): MaybePromise<BoundCommon>;
  /** How reconciliation reads what became of a payment of this scheme whose settlement's reply was lost. */
  fate(settings: FateSettings): FateReader;
}
