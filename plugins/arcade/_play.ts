import { randomUUID } from "node:crypto";
import type { Store, Upstream } from "../../core/endpoint.ts";
import { badRequest, upstreamFailed } from "../../core/runtime/errors.ts";
import type { Outcome } from "./_blackjack.ts";
import { continueHand, dealHand } from "./_blackjack-play.ts";
import { latestBlock, PAYMENT_CHAIN } from "./_chain.ts";
import { coinPair, rollDice } from "./_fair.js";
import { award, ensurePlayer, playerIdOf, playerOrNew, scoreOf } from "./_points.ts";
import { claimSeed, fairnessOf, freshSeed, recordKeys, resultFields, saveRecord, type PendingPlay } from "./_records.ts";
import { referees, type PredictionGame } from "./_referees.ts";
import { CHOICES, type PlayInput, type PlayResult } from "./_schemas.ts";

/** What a play needs from its endpoint's context. */
export interface PlayContext {
  store: Store;
  upstream(name: string): Upstream;
  now(): Date;
  /** A play writes nothing itself: its record, points and schedule are written here, once the call is paid for. */
  afterPayment(effect: () => Promise<unknown>): void;
}

/** Every upstream a play may call. */
export const PLAY_UPSTREAMS = [PAYMENT_CHAIN, "coingecko", "alternative-me"] as const;

/** The one play path behind the paid route and the free web route. */
export async function play(ctx: PlayContext, input: PlayInput): Promise<PlayResult> {
  checkGameFields(input);
  const playerId = playerIdOf(input.player.alias, input.player.secret);
  if (input.game === "blackjack" && input.action !== "deal") return continueHand(ctx, input, playerId);
  const base = { playId: randomUUID(), playerId, alias: input.player.alias, salt: input.salt };
  switch (input.game) {
    case "blackjack":
      return dealHand(ctx, base);
    case "dice":
    case "higherlower":
      return playInstant(ctx, { ...base, game: input.game, choice: input.choice! });
    default:
      return startPrediction(ctx, { ...base, game: input.game, choice: input.choice! });
  }
}

/** Which fields a game needs: choices per game, blackjack actions and hands (400, never charged). */
function checkGameFields(input: PlayInput): void {
  const issue = (field: string, message: string) => badRequest(`Invalid input for arcade/play: ${message}`, { issues: [{ field, message }] });
  if (input.game === "blackjack") {
    if (!input.action) throw issue("action", "blackjack needs an action: deal, hit or stand");
    if (input.action !== "deal" && !input.playId) throw issue("playId", `${input.action} needs the playId of the hand`);
    return;
  }
  const allowed: readonly string[] = CHOICES[input.game];
  if (!input.choice || !allowed.includes(input.choice)) throw issue("choice", `${input.game} takes choice ${allowed.join(", ")}`);
}

interface NewPlay {
  playId: string;
  playerId: string;
  alias: string;
  salt: string;
}

const diceWins = { over: (sum: number) => sum >= 8, under: (sum: number) => sum <= 6, seven: (sum: number) => sum === 7 };

async function playInstant(ctx: PlayContext, play: NewPlay & { game: "dice" | "higherlower"; choice: string }): Promise<PlayResult> {
  const block = await latestBlock(ctx.upstream(PAYMENT_CHAIN));
  const seedHex = await freshSeed(ctx.store, block, play.salt);
  let outcome: Outcome;
  let fields: Partial<PlayResult>;
  let derived;
  if (play.game === "dice") {
    const dice = await rollDice(seedHex);
    const sum = dice[0] + dice[1];
    outcome = diceWins[play.choice as keyof typeof diceWins](sum) ? "win" : "loss";
    fields = { dice, sum };
    derived = { dice };
  } else {
    const pair = await coinPair(seedHex);
    const [shown, hidden] = await marketCaps(ctx.upstream("coingecko"), [pair.shown, pair.hidden]);
    const compared = Math.sign(hidden.marketCapUsd! - shown.marketCapUsd!);
    outcome = compared === 0 ? "push" : (compared > 0) === (play.choice === "higher") ? "win" : "loss";
    fields = { shown, hidden };
    derived = pair;
  }
  const at = ctx.now();
  const score = scoreOf(await playerOrNew(ctx.store, play.playerId, play.alias, at), outcome);
  const result: PlayResult = {
    playId: play.playId, game: play.game, status: "settled", choice: play.choice,
    playedAt: at.toISOString(), settledAt: at.toISOString(), ...resultFields(outcome),
    pointsAwarded: score.pointsAwarded, streakActive: score.streakActive, player: score.player,
    ...fields,
    fairness: fairnessOf(block, play.salt, seedHex, play.game, derived),
  };
  ctx.afterPayment(async () => {
    await claimSeed(ctx.store, seedHex, play.playId);
    await award(ctx.store, { ...play, outcome, pointsAwarded: score.pointsAwarded }, at);
    await saveRecord(ctx.store, play.playerId, result, true);
  });
  return result;
}

/** The two coins' market caps in USD from CoinGecko, in the order asked. */
async function marketCaps(api: Upstream, ids: string[]) {
  const rows = await api.json<{ id: string; symbol: string; name: string; market_cap: number | null }[]>("/coins/markets", {
    query: { vs_currency: "usd", ids: ids.join(",") },
  });
  if (!Array.isArray(rows)) throw upstreamFailed("coingecko", "CoinGecko coins/markets changed shape");
  return ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    if (!row || typeof row.market_cap !== "number" || row.market_cap <= 0) throw upstreamFailed("coingecko", `CoinGecko has no market cap for ${id}`);
    return { id, symbol: row.symbol, name: row.name, marketCapUsd: row.market_cap };
  });
}

async function startPrediction(ctx: PlayContext, play: NewPlay & { game: PredictionGame; choice: string }): Promise<PlayResult> {
  const referee = referees[play.game];
  const now = ctx.now();
  const reference = referee.reference ? await referee.reference(ctx.upstream(referee.upstream)) : undefined;
  const settlesAt = referee.settlesAt(now, reference).toISOString();
  const pending: PendingPlay = { playId: play.playId, playerId: play.playerId, alias: play.alias, game: play.game, choice: play.choice, settlesAt, reference: reference ?? null };
  const player = await playerOrNew(ctx.store, play.playerId, play.alias, now);
  const result: PlayResult = {
    playId: play.playId, game: play.game, status: "pending", choice: play.choice,
    playedAt: now.toISOString(), settledAt: null, ...resultFields(null),
    pointsAwarded: 0, streakActive: player.streak, player,
    referee: { source: referee.source, url: referee.url, settlesAt, reference: reference ?? null, observed: null },
    fairness: null,
  };
  ctx.afterPayment(async () => {
    await ensurePlayer(ctx.store, play.playerId, play.alias);
    await saveRecord(ctx.store, play.playerId, result, true);
    await ctx.store.set(recordKeys.pending(play.playId), pending);
  });
  return result;
}
