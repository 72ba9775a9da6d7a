import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { randomUUID } from "node:crypto";
import type { Outcome } from "../runtime/call.ts";
import { creditOriginOf, fundOnce, holder, type FinishParts } from "./in-flight.ts";
import type { Holder, InFlight } from "./ledger.ts";

/** A payment whose money moved while the store failed: what the payer was given, to be recorded once the store is back. */
export interface JournalEntry {
  id: string;
  record: InFlight;
  transaction: string;
  /** The resolution this process took (or tried to take: its reply may have been lost) before the store failed. */
  holder?: Holder;
  /** The answer the payer got (its effects were applied); without it, the payer got the record's credit code. */
  delivered?: Outcome;
}

export type Journal = ReturnType<typeof createJournal>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The local journal: one JSON line per payment whose money moved while the store could not record it, in a file
 * that outlives the process. Entries are replayed into the store every `retryMs` until it takes them (and at boot,
 * from the file a dead process left): the settled answer for the payer's retry, or the credit it was told of.
 * Exactly once with any other finisher: a replay takes the payment's resolution first (in-flight.ts).
 */
export function createJournal(parts: FinishParts & { file?: string; retryMs?: number }) {
  const { store, ledger, credits, log, file } = parts;
  const entries = new Map<string, JournalEntry>();
  let timer: NodeJS.Timeout | undefined;
  let replaying: Promise<void> | undefined;

  const append = (line: string) => {
    if (!file) return;
    try {
      mkdirSync(dirname(file), { recursive: true });
      appendFileSync(file, `${line}\n`);
    } catch (err) {
      log.error({ err, file }, "the payment journal could not be written; its entries live in memory only");
    }
  };
  if (file) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {}
    for (const line of text.split("\n").filter(Boolean)) {
      try {
        const parsed = JSON.parse(line) as JournalEntry | { done: string };
        if ("done" in parsed) entries.delete(parsed.done);
        else entries.set(parsed.id, parsed);
      } catch {
        log.error({ file, line: line.slice(0, 200) }, "an unreadable line of the payment journal was skipped");
      }
    }
  }

  async function replayOne(e: JournalEntry): Promise<void> {
    const r = e.record;
    const key = r.settlement.claimKey;
    const claim = await ledger.claimOf(key);
    if (claim && claim.state !== "running") return void (await ledger.forget(r));
    const mine = holder("journal", e.transaction);
    const mark = await ledger.resolution(key);
    const held = mark
      ? e.holder !== undefined && same(mark, e.holder) && (await ledger.takeOver(key, mark, mine))
      : await ledger.takeResolution(key, mine);
    // Another process holds it: it finishes the payment (the resolver, from the write-ahead record).
    if (!held) return;
    const base = { fingerprint: r.fingerprint, paymentId: r.paymentId, at: Date.now() };
    if (e.delivered) {
      await ledger.finished(r, { ...base, state: "settled", outcome: e.delivered, transaction: e.transaction });
    } else {
      const { creditCode } = r.settlement;
      await fundOnce(store, credits, log, key, creditCode, BigInt(r.charged), e.transaction, creditOriginOf(r));
      await ledger.finished(r, { ...base, state: "credited", creditCode });
    }
    log.warn(
      { endpoint: r.endpoint, payer: r.payer, transaction: e.transaction, delivered: Boolean(e.delivered) },
      "a journaled payment was recorded in the store",
    );
  }

  async function replay() {
    for (const e of [...entries.values()]) {
      try {
        await replayOne(e);
        entries.delete(e.id);
        append(JSON.stringify({ done: e.id }));
      } catch {
        // The store is still down: the entry waits for the next replay.
      }
    }
    if (entries.size === 0 && file) {
      clearInterval(timer);
      timer = undefined;
      try {
        writeFileSync(file, "");
      } catch {}
    }
  }

  const replayOnce = () => (replaying ??= replay().finally(() => (replaying = undefined)));
  const schedule = () => {
    if (timer || entries.size === 0) return;
    timer = setInterval(() => void replayOnce(), parts.retryMs ?? 2000);
    timer.unref();
  };
  schedule();

  return {
    /** Keeps a payment the store could not record; an error line names it (the operator's trace if all else fails). */
    add(entry: Omit<JournalEntry, "id">, err: unknown) {
      const e = { ...entry, id: randomUUID() };
      entries.set(e.id, e);
      append(JSON.stringify(e));
      log.error(
        {
          err,
          endpoint: e.record.endpoint,
          payer: e.record.payer,
          transaction: e.transaction,
          delivered: Boolean(e.delivered),
          creditCode: e.delivered ? undefined : e.record.settlement.creditCode,
        },
        "a payment moved while the store failed: journaled, recorded once the store is back",
      );
      schedule();
    },
    replayOnce,
    get size() {
      return entries.size;
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
