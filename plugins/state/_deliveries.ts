import { randomUUID } from "node:crypto";
import type { JobContext } from "../../core/endpoint.ts";
import { retentionMs } from "./_watches.ts";
import { signBody } from "./_signing.ts";
import { isoAfter, stateKeys } from "./_wallet.ts";

/** Waits after a failed attempt: 30 s, 2 min, 10 min, 1 h, 4 h; the sixth failure is final. */
export const retryDelaysMs = [30_000, 120_000, 600_000, 3_600_000, 14_400_000];
export const maxAttempts = retryDelaysMs.length + 1;
/** An attempt in flight is leased this long; a crashed instance's attempt is retried after it. */
const leaseMs = 120_000;

export interface Delivery {
  id: string;
  watchId: string;
  url: string;
  event: string;
  body: string;
  signature: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

/** Records a signed event for a receiver; the body and signature stay the same on every retry. */
export async function queueDelivery(
  ctx: JobContext,
  input: { watchId: string; url: string; secret: string; event: string; payload: object },
): Promise<Delivery> {
  const id = randomUUID();
  const createdAt = ctx.now().toISOString();
  const body = JSON.stringify({ id, type: input.event, createdAt, ...input.payload });
  const delivery: Delivery = {
    id,
    watchId: input.watchId,
    url: input.url,
    event: input.event,
    body,
    signature: signBody(input.secret, body),
    status: "pending",
    attempts: 0,
    createdAt,
    lastAttemptAt: null,
    nextAttemptAt: createdAt,
    lastStatus: null,
    lastError: null,
    deliveredAt: null,
  };
  await ctx.store.set(stateKeys.delivery(id), delivery, retentionMs);
  return delivery;
}

/** Sends every pending delivery whose time has come (retries, and attempts a crash interrupted). */
export async function sendDueDeliveries(ctx: JobContext): Promise<void> {
  for (const key of await ctx.store.keys(stateKeys.deliveryPrefix)) {
    if (ctx.signal.aborted) return;
    const delivery = await ctx.store.get<Delivery>(key);
    if (delivery?.status === "pending" && Date.parse(delivery.nextAttemptAt!) <= ctx.now().getTime())
      await attemptDelivery(ctx, delivery);
  }
}

/**
 * One POST through the egress guard (the receiver is checked again on every attempt). The attempt is
 * claimed in the shared store, so two instances never send the same attempt; a 2xx answer delivers it.
 */
export async function attemptDelivery(ctx: JobContext, delivery: Delivery): Promise<Delivery> {
  const attempt = delivery.attempts + 1;
  if (!(await ctx.store.claim(stateKeys.attemptLease(delivery.id, attempt), ctx.now().toISOString(), leaseMs)))
    return delivery;
  const current = await ctx.store.get<Delivery>(stateKeys.delivery(delivery.id));
  if (current?.status !== "pending" || current.attempts !== delivery.attempts) return current ?? delivery;
  const headers = {
    "content-type": "application/json",
    "x-signature": delivery.signature,
    "x-webhook-id": delivery.id,
    "x-webhook-event": delivery.event,
    "x-webhook-attempt": String(attempt),
  };
  let status: number | null = null;
  let error: string | null = null;
  try {
    status = (await ctx.egress.fetch(delivery.url, { method: "POST", headers, body: delivery.body })).status;
    if (status < 200 || status >= 300) error = `the receiver answered HTTP ${status}`;
  } catch (err) {
    if (ctx.signal.aborted) return delivery;
    error = (err as Error).message;
  }
  const at = ctx.now();
  const done = error === null;
  const final = !done && attempt >= maxAttempts;
  const next: Delivery = {
    ...delivery,
    attempts: attempt,
    lastAttemptAt: at.toISOString(),
    lastStatus: status,
    lastError: error,
    status: done ? "delivered" : final ? "failed" : "pending",
    nextAttemptAt: done || final ? null : isoAfter(at, retryDelaysMs[attempt - 1]),
    deliveredAt: done ? at.toISOString() : null,
  };
  await ctx.store.set(
    stateKeys.delivery(delivery.id),
    next,
    Math.max(retentionMs - (at.getTime() - Date.parse(delivery.createdAt)), 60_000),
  );
  if (!done)
    ctx.log.info(
      { delivery: delivery.id, attempt, error },
      final ? "webhook delivery failed for good" : "webhook delivery will be retried",
    );
  return next;
}
