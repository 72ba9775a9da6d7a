import { setTimeout as sleep } from "node:timers/promises";
import * as v from "valibot";
import { defineEndpoint, type CreditIssuer, type Store } from "../../core/endpoint.ts";
import { unavailable } from "../../core/runtime/errors.ts";
import { keys, previousWeek, weekEnd, weekOf } from "./_points.ts";
import { PlayerId } from "./_schemas.ts";
import { arcadeSettings } from "./_settings.ts";

interface Promo {
  code: string;
  amountUsd: string;
}

/** One code per winner and week, however many times or places it is asked for. */
async function promoFor(store: Store, credits: CreditIssuer, week: string, player: string, amountUsd: string, rank: number): Promise<Promo> {
  const key = `arcade:promo:${week}:${player}`;
  const keepMs = 60 * 86_400_000;
  if (await store.claim(`arcade:promo-claim:${week}:${player}`, true, keepMs)) {
    const code = await credits.issue(`$${amountUsd}`, `arcade week ${week} rank ${rank}`);
    await store.set(key, { code, amountUsd } satisfies Promo, keepMs);
    return { code, amountUsd };
  }
  for (let attempt = 0; attempt < 100; attempt++) {
    const promo = await store.get<Promo>(key);
    if (promo) return promo;
    await sleep(20);
  }
  throw unavailable("The promo code is being issued; ask again in a moment", 1);
}

export default defineEndpoint({
  name: "arcade/promo-code",
  method: "GET",
  price: "$0",
  summary: "The API-credit promo code of a top-3 player of the last finished arcade week (no cash prizes)",
  description: "Spend the code as the X-CREDIT-CODE header on any paid route instead of a payment. The same code comes back on every ask.",
  input: v.object({ player: PlayerId }),
  output: v.object({
    player: v.string(),
    week: v.object({ start: v.pipe(v.string(), v.isoTimestamp()), end: v.pipe(v.string(), v.isoTimestamp()) }),
    rank: v.nullable(v.pipe(v.number(), v.integer())),
    points: v.pipe(v.number(), v.integer()),
    eligible: v.boolean(),
    code: v.nullable(v.string()),
    amountUsd: v.nullable(v.string()),
    spendWith: v.string(),
  }),
  example: {
    input: { player: "dc3085f04c8eafdc5ea1baac683e4454306b4b17dc0ab0a01ae466e25cabd2f8" },
    output: {
      player: "dc3085f04c8eafdc5ea1baac683e4454306b4b17dc0ab0a01ae466e25cabd2f8",
      week: { start: "2026-11-16T00:00:00.000Z", end: "2026-11-23T00:00:00.000Z" },
      rank: null, points: 0, eligible: false, code: null, amountUsd: null,
      spendWith: "X-CREDIT-CODE request header on any paid route",
    },
  },
  settings: arcadeSettings,
  async handler({ input, store, now, settings, credits }) {
    const week = previousWeek(weekOf(now()));
    const top = (await store.top(keys.weekBoard(week), 3)).filter((x) => x.score > 0);
    const at = top.findIndex((x) => x.member === input.player);
    const rank = at === -1 ? null : at + 1;
    const promo = rank ? await promoFor(store, credits, week, input.player, settings.promoUsd[rank - 1], rank) : undefined;
    return {
      player: input.player,
      week: { start: new Date(week).toISOString(), end: weekEnd(week) },
      rank,
      points: (await store.get<number>(keys.weekPoints(week, input.player))) ?? 0,
      eligible: rank !== null,
      code: promo?.code ?? null,
      amountUsd: promo?.amountUsd ?? null,
      spendWith: "X-CREDIT-CODE request header on any paid route",
    };
  },
});
