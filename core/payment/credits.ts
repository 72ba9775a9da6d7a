import { randomBytes } from "node:crypto";
import type { HeldCredit, Store } from "../endpoint.ts";
import { metrics } from "../runtime/prometheus.ts";
import type { CredentialCarrier } from "./carrier.ts";
import { createWalletIndex } from "./wallet-index.ts";

/** Whom a code is for and why: a code a paid call gives back is listed to its payer, signed in. */
export interface CreditOrigin {
  payer: string;
  reason: string;
}

export interface Credits {
  /** A new bearer code holding `amount` atomic USDC units; listed to `payer`, when it is a wallet's. */
  issue(amount: bigint, reason: string, payer?: string): Promise<string>;
  /**
   * Adds value to a code (reconciliation funds a code it handed out earlier). With `origin`, a code named ahead
   * and funded now for the first time is issued: it gets its reason and is listed to its payer.
   */
  fund(code: string, amount: bigint, origin?: CreditOrigin): Promise<void>;
  balance(code: string): Promise<bigint | undefined>;
  /** Takes `amount` if the balance covers it; never lets a balance go below zero, however many spend at once. */
  spend(code: string, amount: bigint): Promise<boolean>;
  /** The codes issued to `wallet` that are still live, newest first (the newest `maxListed`). */
  issuedTo(wallet: string): Promise<HeldCredit[]>;
}

interface CreditMeta {
  reason: string;
  issuedAt: string;
  expiresAt?: string;
}

const key = (code: string) => `credit:${code}`;
const metaKey = (code: string) => `credit-meta:${code}`;
const yearMs = 365 * 24 * 3600 * 1000;
const maxListed = 100;

const codeBytes = 18;
/** Randomness for 256 codes at a time: every paid call names a code ahead, and one randomBytes call costs ~4 µs. */
let entropy: Buffer = Buffer.alloc(0);
let used = 0;

/** A fresh bearer code, not yet in the store: a payment in flight names it before it knows it will fund it. */
export function newCreditCode() {
  if (used + codeBytes > entropy.length) {
    entropy = randomBytes(codeBytes * 256);
    used = 0;
  }
  used += codeBytes;
  return `cr_${entropy.toString("base64url", used - codeBytes, used)}`;
}

export const isCreditCode = (code: string) => /^cr_[A-Za-z0-9_-]{24}$/.test(code);

export function createCredits(store: Store): Credits {
  const index = createWalletIndex(store, "credits", { max: maxListed, ttlMs: yearMs });
  const metaNow = (reason: string): CreditMeta => {
    const now = Date.now();
    return { reason, issuedAt: new Date(now).toISOString(), expiresAt: new Date(now + yearMs).toISOString() };
  };
  return {
    async issue(amount, reason, payer) {
      const code = newCreditCode();
      await store.set(metaKey(code), metaNow(reason), yearMs);
      // Listed before funded: a failure after the listing leaves no balance, so nothing unfunded is listed.
      if (payer) await index.add(payer, code);
      await store.increment(key(code), Number(amount), yearMs);
      metrics.creditCodes.inc();
      metrics.creditsIssued.inc(Number(amount));
      return code;
    },
    async fund(code, amount, origin) {
      const issued = origin !== undefined && (await store.claim(metaKey(code), metaNow(origin.reason), yearMs));
      if (issued) await index.add(origin.payer, code);
      await store.increment(key(code), Number(amount), yearMs);
      if (issued) metrics.creditCodes.inc();
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
    async issuedTo(wallet) {
      const codes = await index.list(wallet);
      const held = await Promise.all(
        codes.map(async (code) => {
          const [balance, meta] = await Promise.all([
            store.get<number>(key(code)),
            store.get<CreditMeta>(metaKey(code)),
          ]);
          if (balance === undefined || !meta) return undefined;
          const expiresAt = meta.expiresAt ?? new Date(Date.parse(meta.issuedAt) + yearMs).toISOString();
          return { code, balance: String(balance), issuedAt: meta.issuedAt, expiresAt, reason: meta.reason };
        }),
      );
      return held.filter((c) => c !== undefined);
    },
  };
}

/** A credit code travels in its own header; it belongs to no protocol. */
export const creditHeader = "x-credit-code";
export const creditCarrier: CredentialCarrier = { requestHeaders: [creditHeader], responseHeaders: [] };
