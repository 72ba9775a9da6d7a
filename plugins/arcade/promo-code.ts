import { setTimeout as sleep } from "node:timers/promises";
import * as v from "valibot";
import { defineEndpoint, type CreditIssuer, type Store } from "../../core/endpoint.ts";
import { unavailable } from "../../core/runtime/errors.ts";
import { atomicToPrice } from "../../core/shared.ts";
import { prizeOf, ranked } from "./_boards.ts";
import { keys, playerIdOf, previousWeek, weekEnd, weekOf } from "./_points.ts";
import { refundsOf, usdToAtomic } from "./_refund.ts";
import { PlayerKey } from "./_schemas.ts";
import { arcadeSettings } from "./_settings.ts";

const atomicToUsd = (atomic: bigint) =>
  `${atomic / 1_000_000n}.${(atomic % 1_000_000n)
    .toString()
    .padStart(6, "0")
    .replace(/0{1,4}$/, "")}`;

interface Promo {
  code: string;
  amountUsd: string;
}

/** One code per winner and week, however many times or places it is asked for. */
async function promoFor(
  store: Store,
  credits: CreditIssuer,
  week: string,
  player: string,
  rank: number,
  amount: bigint,
): Promise<Promo> {
  const key = `arcade:promo:${week}:${player}`;
  const keepMs = 60 * 86_400_000;
  if (await store.claim(`arcade:promo-claim:${week}:${player}`, true, keepMs)) {
    const amountUsd = atomicToUsd(amount);
    const code = await credits.issue(atomicToPrice(amount), `arcade week ${week} rank ${rank}`);
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
  method: "POST",
  price: "$0",
  summary:
    "Your API-credit codes: the promo code of a top-3 place in the last finished week's paid plays, and the fees credited back for void plays",
  description:
    "Needs the player's alias and secret (the id alone is public enough to be guessed from the board). Places rank the points of paid plays only; " +
    "tied players share the place and split the prizes of the places they take. Spend a code as the X-CREDIT-CODE header on any paid route; " +
    "the same code comes back on every ask.",
  input: v.object({ player: PlayerKey }),
  output: v.object({
    player: v.string(),
    week: v.object({ start: v.pipe(v.string(), v.isoTimestamp()), end: v.pipe(v.string(), v.isoTimestamp()) }),
    rank: v.nullable(v.pipe(v.number(), v.integer())),
    tied: v.pipe(v.number(), v.integer(), v.description("Players sharing this rank (1 when alone)")),
    points: v.nullable(v.pipe(v.number(), v.integer(), v.description("Points from paid plays that week, when placed"))),
    eligible: v.boolean(),
    code: v.nullable(v.string()),
    amountUsd: v.nullable(v.string()),
    refunds: v.array(v.object({ playId: v.string(), code: v.string(), amountUsd: v.string() })),
    spendWith: v.string(),
  }),
  example: {
    input: { player: { alias: "ada", secret: "correct horse battery" } },
    output: {
      player: "dc3085f04c8eafdc5ea1baac683e4454306b4b17dc0ab0a01ae466e25cabd2f8",
      week: { start: "2026-11-16T00:00:00.000Z", end: "2026-11-23T00:00:00.000Z" },
      rank: null,
      tied: 1,
      points: null,
      eligible: false,
      code: null,
      amountUsd: null,
      refunds: [],
      spendWith: "X-CREDIT-CODE request header on any paid route",
    },
  },
  settings: arcadeSettings,
  async handler({ input, store, now, settings, credits }) {
    const id = playerIdOf(input.player.alias, input.player.secret);
    const week = previousWeek(weekOf(now()));
    const mine = (await ranked(store, keys.paidWeekBoard(week), 3)).find((x) => x.member === id);
    const prize = mine ? prizeOf(mine, settings.promoUsd.map(usdToAtomic)) : 0n;
    const promo = mine && prize > 0n ? await promoFor(store, credits, week, id, mine.rank, prize) : undefined;
    return {
      player: id,
      week: { start: new Date(week).toISOString(), end: weekEnd(week) },
      rank: mine?.rank ?? null,
      tied: mine?.tied ?? 1,
      points: mine?.score ?? null,
      eligible: promo !== undefined,
      code: promo?.code ?? null,
      amountUsd: promo?.amountUsd ?? null,
      refunds: await refundsOf(store, id),
      spendWith: "X-CREDIT-CODE request header on any paid route",
    };
  },
});
