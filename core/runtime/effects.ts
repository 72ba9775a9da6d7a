import type { Logger, Store, StoreWrite } from "../endpoint.ts";

/**
 * How long a reservation holds before its call is known to be paid: longer than a call takes from its handler
 * to the end of its settlement, so only a reservation left by a crashed process runs out (and frees itself).
 */
export const reservationMs = 300_000;

interface Reservation {
  key: string;
  value: unknown;
  /** How long it is kept once the call is paid. */
  ttlMs: number;
}

interface Write {
  apply: () => Promise<unknown>;
  undo?: () => Promise<unknown>;
  /** The write as data, when it is one store write: what another process can apply after this one died. */
  data?: StoreWrite;
}

interface Part {
  unit: Unit;
  /** The part answered below 400: its unit is kept with its parent's; a failed part's is released. */
  answered: boolean;
}

/**
 * What a call holds until it is known to be paid: the keys it reserved (`ctx.reserve`), the writes it deferred
 * (`ctx.afterPayment`), and the units of its parts (`ctx.call`: a batch item, a bundle part), one per part.
 * A paid call's unit is kept: reservations extended, writes applied. An unpaid one is released. A unit whose
 * writes cannot all be applied is withdrawn: every write undone, every reservation released, nothing kept.
 */
export interface Unit {
  reservations: Reservation[];
  writes: Write[];
  parts: Part[];
  /** A call that answers for each of its parts (the batch): its answer once paid, given the parts withdrawn. */
  answerWhenPaid?: (withdrawn: number[]) => Promise<unknown>;
  /** Kept or released: what a part still running past its parent's deadline reserves or writes later is refused. */
  closed: boolean;
}

export interface UnitContext {
  store: Store;
  log: Logger;
  /** Who the unit belongs to, for the log (endpoint, request id). */
  about: object;
}

export const newUnit = (): Unit => ({ reservations: [], writes: [], parts: [], closed: false });

/** A store write given as data: applied as a write of the unit, and kept as data for `described`. */
export const dataWrite = (store: Store, data: StoreWrite): Write => ({
  apply: () => store.set(data.set, data.value, data.ttlMs),
  data,
});

/**
 * What keeping a paid unit does, as data: its reservations renewed and its writes set. Both are idempotent, so
 * whichever process finishes the call applies them, once or again, to the same end. Undefined when part of it is
 * a closure (`afterPayment(apply)`, `answerWhenPaid`): then only the process that ran the call can keep it.
 */
export type Effect = StoreWrite | { renew: string; value: unknown; ttlMs: number };

export function described(unit: Unit): Effect[] | undefined {
  if (unit.answerWhenPaid || unit.writes.some((w) => !w.data)) return undefined;
  const parts = unit.parts.filter((p) => p.answered).map((p) => described(p.unit));
  if (parts.includes(undefined)) return undefined;
  return [
    ...unit.reservations.map((r) => ({ renew: r.key, value: r.value, ttlMs: r.ttlMs })),
    ...unit.writes.map((w) => w.data!),
    ...parts.flatMap((p) => p!),
  ];
}

/** Applies described effects; false (nothing written) when a reservation was lost meanwhile. Throws when the store fails. */
export async function applyDescribed(store: Store, effects: Effect[]): Promise<boolean> {
  for (const e of effects) if ("renew" in e && !(await store.renewIf(e.renew, e.value, e.ttlMs))) return false;
  for (const e of effects) if ("set" in e) await store.set(e.set, e.value, e.ttlMs);
  return true;
}

/** Claims `key` for the unit, for a short while until the call is paid; false when another call holds it. */
export async function reserve(store: Store, unit: Unit, key: string, value: unknown, ttlMs: number) {
  if (unit.closed || !(await store.claim(key, value, Math.min(ttlMs, reservationMs)))) return false;
  if (unit.closed) {
    await store.deleteIf(key, value);
    return false;
  }
  unit.reservations.push({ key, value, ttlMs });
  return true;
}

/** Registers a part of the unit's call, in call order (the batch's item indexes); filled in once it answers. */
export function partOf(unit: Unit): Part {
  const part = { unit: newUnit(), answered: false };
  if (unit.closed) part.unit.closed = true;
  else unit.parts.push(part);
  return part;
}

/** The call was not paid: every reservation it (and each part) holds is given back. Never throws: they expire anyway. */
export async function release(cx: UnitContext, unit: Unit): Promise<void> {
  unit.closed = true;
  await Promise.all([
    ...unit.reservations.map((r) =>
      cx.store
        .deleteIf(r.key, r.value)
        .catch((err) => cx.log.warn({ ...cx.about, err, key: r.key }, "reservation not released")),
    ),
    ...unit.parts.map((p) => release(cx, p.unit)),
  ]);
}

/**
 * The call is paid: its reservations are extended to their full time and its writes applied, then each answered
 * part's in turn. Returns the parts withdrawn (their writes could not be applied), or undefined when the unit's own
 * writes could not, or a part's where the call does not answer for each part: then the whole unit is withdrawn.
 */
export async function keep(cx: UnitContext, unit: Unit, perPart = false): Promise<number[] | undefined> {
  unit.closed = true;
  await Promise.all(unit.parts.filter((p) => !p.answered).map((p) => release(cx, p.unit)));
  const held = await Promise.all(
    unit.reservations.map((r) => cx.store.renewIf(r.key, r.value, r.ttlMs).catch(() => false)),
  );
  if (held.includes(false) || !(await appliedAll(cx, unit.writes))) return withdraw(cx, unit);
  const failed: number[] = [];
  for (const [i, part] of unit.parts.entries()) {
    if (!part.answered || (await keep(cx, part.unit)) !== undefined) continue;
    if (!perPart) return withdraw(cx, unit);
    failed.push(i);
  }
  return failed;
}

/** Nothing of the unit is kept: its writes undone (newest first; an undo is safe on a write that never landed), its reservations released. */
export async function withdraw(cx: UnitContext, unit: Unit): Promise<undefined> {
  for (const part of [...unit.parts].reverse()) await withdraw(cx, part.unit);
  for (const write of [...unit.writes].reverse()) {
    if (write.undo && !(await retried(cx, write.undo)))
      cx.log.error(cx.about, "a withdrawn write could not be undone; it stays");
  }
  await release(cx, unit);
  return undefined;
}

async function appliedAll(cx: UnitContext, writes: Write[]): Promise<boolean> {
  for (const write of writes) if (!(await retried(cx, write.apply))) return false;
  return true;
}

const attempts = [0, 100, 500];

/** Runs an idempotent write until it succeeds, three times at most; false when it still fails. */
async function retried(cx: UnitContext, work: () => Promise<unknown>): Promise<boolean> {
  for (const wait of attempts) {
    if (wait) await new Promise((r) => setTimeout(r, wait));
    const done = await work().then(
      () => true,
      (err) => (cx.log.warn({ ...cx.about, err }, "a write after payment failed"), false),
    );
    if (done) return true;
  }
  return false;
}
