import { randomBytes } from "node:crypto";
import type { Store } from "../endpoint.ts";
import { metrics } from "../runtime/prometheus.ts";
import type { CredentialCarrier } from "./carrier.ts";

export interface Credits {
  /** A new bearer code holding `amount` atomic USDC units. */
  issue(amount: bigint, reason: string): Promise<string>;
  /** Adds value to an existing code (reconciliation funds a code it handed out earlier). */
  fund(code: string, amount: bigint): Promise<void>;
  balance(code: string): Promise<bigint | undefined>;
  /** Takes `amount` if the balance covers it; never lets a balance go below zero, however many spend at once. */
  spend(code: string, amount: bigint): Promise<boolean>;
}

const key = (code: string) => `credit:${code}`;
const metaKey = (code: string) => `credit-meta:${code}`;
const yearMs = 365 * 24 * 3600 * 1000;

/** A fresh bearer code, not yet in the store: a payment in flight names it before it knows it will fund it. */
export const newCreditCode = () => `cr_${randomBytes(18).toString("base64url")}`;

export const isCreditCode = (code: string) => /^cr_[A-Za-z0-9_-]{24}$/.test(code);

export function createCredits(store: Store): Credits {
  return {
    async issue(amount, reason) {
      const code = newCreditCode();
      await store.set(metaKey(code), { reason, issuedAt: new Date().toISOString() }, yearMs);
      await store.increment(key(code), Number(amount), yearMs);
      metrics.creditCodes.inc();
      metrics.creditsIssued.inc(Number(amount));
      return code;
    },
    async fund(code, amount) {
      await store.increment(key(code), Number(amount), yearMs);
      metrics.creditsIssued.inc(Number(amount));
    },
    async balance(code) {
      const value = await store.get<number>(key(code));
      return value === undefined ? undefined : BigInt(value);
    },
    async spend(code, amount) {
      const spent = isCreditCode(code) && (await store.take(key(code), Number(amount))) !== undefined;
      if (spent) metrics.creditsSpent.inc(Number(amount));
      return spent;
    },
  };
}

/** A credit code travels in its own header; it belongs to no protocol. */
export const creditHeader = "x-credit-code";
export const creditCarrier: CredentialCarrier = { requestHeaders: [creditHeader], responseHeaders: [] };
