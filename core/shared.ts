import type { Endpoint, Price } from "./endpoint.ts";

/**
 * Small pure helpers used by more than one part of the service (the runtime, the payment code, the plugins).
 * They live here, with no dependencies, so no part reaches into another for them.
 */

/** JSON with sorted keys, so equal values give equal text (cache keys, payment fingerprints). */
/** A value as an HTTP header carries JSON: base64 of its JSON. */
export const encodeHeader = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
/** The JSON a header carries as base64 (the x402 headers), as encodeHeader wrote it. */
export const decodeHeader = <T = unknown>(value: string): T =>
  JSON.parse(Buffer.from(value, "base64").toString("utf8"));

export function stableJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`).join(",")}}`;
}

/** A route that asks no payment ("$0"). */
export const isFree = (endpoint: Pick<Endpoint, "price">) => Number(endpoint.price.slice(1)) === 0;

/** The text parsed as JSON, or the text itself when it is not JSON. */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Header names lower-cased, so later entries override earlier ones whatever their case. */
export function lowerKeys(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** "$0.005" in a token of `decimals` decimals, as an integer string; exact, no floating point. */
export function toAtomicAmount(price: string, decimals: number): string {
  const m = /^\$(\d+)(?:\.(\d+))?$/.exec(price);
  if (!m) throw new Error(`Not a money string: ${price}`);
  const fraction = (m[2] ?? "").padEnd(decimals, "0");
  if (fraction.length > decimals) throw new Error(`${price} has more than ${decimals} decimals`);
  return (BigInt(m[1]) * 10n ** BigInt(decimals) + BigInt(fraction || "0")).toString();
}

/** USDC atomic units (6 decimals) as a money string: 250000n -> "$0.25". */
export const atomicToPrice = (atomic: bigint): Price =>
  `$${atomic / 1_000_000n}.${
    String(atomic % 1_000_000n)
      .padStart(6, "0")
      .replace(/0+$/, "") || "0"
  }` as Price;

/**
 * Loads once, on first use, so a big module or dataset costs no boot time or memory until someone asks.
 * A loader returning a promise (a dynamic import) is cached as that promise.
 */
export function lazy<T>(load: () => T): () => T {
  let value: T | undefined;
  let loaded = false;
  return () => {
    if (!loaded) {
      value = load();
      loaded = true;
    }
    return value as T;
  };
}

/**
 * A value per key that never changes once computed (an address of a public key, a checksum), remembered for up to
 * `max` keys: all are forgotten when it is full, so a stream of new keys costs memory no more than that.
 */
export function remembered<V>(max: number): (key: string, compute: () => V) => V {
  const values = new Map<string, V>();
  return (key, compute) => {
    let value = values.get(key);
    if (value === undefined) {
      value = compute();
      if (values.size >= max) values.clear();
      values.set(key, value);
    }
    return value;
  };
}

const warmAfterReady: (() => unknown)[] = [];

/**
 * `lazy`, and loaded in the background as soon as the service is ready (`warmDeferred`), so the module costs no
 * boot time, yet the first call that needs it does not pay its loading inside its own deadline.
 */
export function lazyWarmed<T>(load: () => T): () => T {
  const get = lazy(load);
  warmAfterReady.push(get);
  return get;
}

/** Loads what `lazyWarmed` deferred; a load that fails is left to its first use, which reports it. */
export function warmDeferred(): void {
  for (const get of warmAfterReady.splice(0)) {
    try {
      get();
    } catch {}
  }
}

/** Text safe inside HTML, attribute values included. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A route under `/<family>/api/` serves one of the family's pages (a free play, a widget's quote), not agents. */
export const isPageRoute = (e: Pick<Endpoint, "path">) => /^\/[a-z0-9-]+\/api\//.test(e.path);

/** The endpoints every agent-facing document lists: all loaded ones but the pages' own routes. */
export const agentEndpoints = <E extends Pick<Endpoint, "path">>(endpoints: readonly E[]) =>
  endpoints.filter((e) => !isPageRoute(e));

/** A wallet's paid calls, newest first (a sorted set scored by time): written when a paid answer leaves, read signed in. */
export const paidHistoryKey = (wallet: string) => `history:${wallet.startsWith("0x") ? wallet.toLowerCase() : wallet}`;

/** One row of a wallet's paid-call history. */
export interface PaidCall {
  route: string;
  at: string;
  /** What was charged, in USDC atomic units. */
  charged: string;
  network: string;
  transaction?: string;
  /** The call's signed receipt (a JWS), when receipts are on. */
  receipt?: string;
}
