import * as v from "valibot";
import { defineSettings, type Store } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";
import { integerSetting } from "../../core/runtime/settings.ts";
import type { Delivery } from "./_deliveries.ts";
import { watchModes, type Observation, type WatchMode } from "./_observe.ts";
import { stateKeys } from "./_wallet.ts";

export const intervalBounds = { min: 300, max: 86_400, default: 3600 };
export const lifetimeBounds = { min: 3600, max: 7 * 86_400, default: 86_400 };
/** How long a watch and its deliveries stay readable with /v1/watch-status after the watch ends. */
export const retentionMs = 7 * 86_400_000;
/** The deliveries a watch lists, newest first. */
export const listedDeliveries = 10;

/** Live watches one wallet may have at once by default. */
export const defaultWatchesPerWallet = 20;

/** The state family's settings: WATCH_MAX_PER_WALLET, the live watches one wallet may have at once. */
export const stateSettings = defineSettings((env) => ({
  watchesPerWallet: integerSetting("WATCH_MAX_PER_WALLET", env, defaultWatchesPerWallet, 1, 10_000),
}));

export interface Watch {
  id: string;
  owner: string;
  url: string;
  webhook: string;
  mode: WatchMode;
  selector: string | null;
  interval: number;
  secret: string;
  createdAt: string;
  expiresAt: string;
  nextCheckAt: string;
  checks: number;
  changes: number;
  /** The last good observation: what the next check is compared with. */
  last: Observation;
  lastCheckedAt: string;
  lastChangedAt: string | null;
  lastError: string | null;
  deliveries: string[];
}

export const saveWatch = (store: Store, watch: Watch, now: Date) =>
  store.set(stateKeys.watch(watch.id), watch, Date.parse(watch.expiresAt) + retentionMs - now.getTime());

const slotsOf = (wallet: string, cap: number) => Array.from({ length: cap }, (_, n) => stateKeys.slot(wallet, n));
const limitReached = (cap: number) =>
  new ServiceError(
    409,
    "watch_limit_reached",
    `This wallet already has ${cap} live watches; one frees up when it expires`,
    { limit: cap },
  );

/**
 * Reserves one of the wallet's watch slots for the watch, before payment: kept until the watch expires once the
 * call is paid, given back if it is not. Each slot is a claim in the shared store, so concurrent creations on
 * several instances never exceed the cap and the ones beyond it are refused free (409); an expired watch frees its slot.
 */
export async function reserveSlot(
  reserve: (key: string, value: unknown, ttlMs: number) => Promise<boolean>,
  store: Store,
  wallet: string,
  id: string,
  lifetimeMs: number,
  cap: number,
): Promise<void> {
  const slots = slotsOf(wallet, cap);
  const holders = await Promise.all(slots.map((slot) => store.get(slot)));
  for (const [n, slot] of slots.entries())
    if (holders[n] === undefined && (await reserve(slot, id, lifetimeMs))) return;
  throw limitReached(cap);
}

export const deliveryView = v.object({
  id: v.pipe(v.string(), v.description("Event id, sent as X-Webhook-Id")),
  status: v.picklist(["pending", "delivered", "failed"]),
  attempts: v.number(),
  createdAt: v.string(),
  lastAttemptAt: v.nullable(v.string()),
  nextAttemptAt: v.nullable(v.string()),
  lastStatus: v.pipe(v.nullable(v.number()), v.description("HTTP status the receiver answered on the last attempt")),
  lastError: v.nullable(v.string()),
  deliveredAt: v.nullable(v.string()),
});

/** A watch as its owner sees it, what /v1/watch answers and /v1/watch-status starts with: never its owner or secret. */
export const watchView = {
  id: v.string(),
  url: v.string(),
  webhook: v.string(),
  mode: v.picklist(watchModes),
  selector: v.nullable(v.string()),
  interval: v.pipe(v.number(), v.description("Seconds between checks")),
  createdAt: v.string(),
  expiresAt: v.string(),
  nextCheckAt: v.nullable(v.string()),
  status: v.picklist(["active", "expired"]),
};

export function viewOf(watch: Watch, now: Date): v.InferOutput<v.ObjectSchema<typeof watchView, undefined>> {
  const active = Date.parse(watch.expiresAt) > now.getTime();
  const { id, url, webhook, mode, selector, interval, createdAt, expiresAt } = watch;
  return {
    id,
    url,
    webhook,
    mode,
    selector,
    interval,
    createdAt,
    expiresAt,
    nextCheckAt: active ? watch.nextCheckAt : null,
    status: active ? ("active" as const) : ("expired" as const),
  };
}

export function deliveryViewOf(d: Delivery): v.InferOutput<typeof deliveryView> {
  const { id, status, attempts, createdAt, lastAttemptAt, nextAttemptAt, lastStatus, lastError, deliveredAt } = d;
  return { id, status, attempts, createdAt, lastAttemptAt, nextAttemptAt, lastStatus, lastError, deliveredAt };
}
