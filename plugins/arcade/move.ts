import { randomUUID } from "node:crypto";
import { defineEndpoint } from "../../core/endpoint.ts";
import { conflict, notFound } from "../../core/runtime/errors.ts";
import { chainHead, PAYMENT_CHAIN } from "./_chain.ts";
import { playerIdOf, playerOrNew, withLock } from "./_points.ts";
import { saveRecord } from "./_records.ts";
import { MoveInput, PlayResult } from "./_schemas.ts";
import {
  BLOCK_WAIT_MS,
  KEEP_MS,
  loadSeeded,
  renderSeeded,
  saveSeeded,
  seededKeys,
  type SeededPlay,
} from "./_seeded.ts";

const MOVES_OF = { blackjack: ["hit", "stand"], higherlower: ["higher", "lower"] } as Record<string, string[]>;
const moved = () =>
  conflict("play_moved", "Another move on this play came first; read it again with GET /v1/arcade/me");

export default defineEndpoint({
  name: "arcade/move",
  method: "POST",
  price: "$0",
  summary:
    "The free next move of an arcade play already paid for: blackjack hit or stand, higherlower's higher or lower once the shown coin is out",
  description:
    "The move is recorded with the first block mined after it, which draws the cards or the hidden coin (GET /v1/arcade/me shows the result). " +
    "A play waiting for your move past its deadline counts as a loss.",
  input: MoveInput,
  output: PlayResult,
  example: {
    input: {
      playId: "0b7f0c5e-3f4c-4e7e-9d8f-2a4c6d1e9b10",
      move: "stand",
      player: { alias: "ada", secret: "correct horse battery" },
    },
    output: {
      playId: "0b7f0c5e-3f4c-4e7e-9d8f-2a4c6d1e9b10",
      game: "blackjack",
      status: "pending",
      choice: null,
      playedAt: "2026-11-23T10:00:00.000Z",
      settledAt: null,
      outcome: null,
      won: null,
      pointsAwarded: 0,
      streakActive: 1,
      player: {
        id: "dc3085f04c8eafdc5ea1baac683e4454306b4b17dc0ab0a01ae466e25cabd2f8",
        alias: "ada",
        points: 10,
        weekPoints: 10,
        streak: 1,
        bestStreak: 1,
        wins: 1,
        plays: 1,
      },
      awaiting: {
        what: "block",
        stage: "stand",
        decidingBlock: null,
        deadline: "2026-11-23T10:05:00.000Z",
        next: "Drawn from the first block of eip155:8453 mined after this stage was recorded: read it with GET /v1/arcade/me?id=dc3085f04c8eafdc5ea1baac683e4454306b4b17dc0ab0a01ae466e25cabd2f8",
      },
      hand: ["10S", "7H"],
      handTotal: 17,
      dealerUpcard: "9D",
      dealerHand: ["9D"],
      dealerTotal: null,
      inProgress: true,
      fairness: null,
    },
  },
  upstreams: [PAYMENT_CHAIN],
  async handler(ctx) {
    const { input, store } = ctx;
    const playerId = playerIdOf(input.player.alias, input.player.secret);
    const play = await loadSeeded(store, input.playId);
    if (!play || play.playerId !== playerId) throw notFound("No play with this playId for this player");
    if (play.status !== "in_progress")
      throw conflict(
        "not_your_move",
        `The play is ${play.status}: ${play.status === "pending" ? "its block is not out yet" : "it is over"}`,
      );
    if (!MOVES_OF[play.game]?.includes(input.move))
      throw conflict("wrong_move", `${play.game} takes ${MOVES_OF[play.game].join(" or ")}`);
    const moveId = randomUUID();
    const stage = play.game === "blackjack" ? (input.move as "hit" | "stand") : "choose";
    const choice = play.game === "higherlower" ? input.move : play.choice;
    const index = play.stages.length;
    const moving = (at: Date, blockNumber: number | null): SeededPlay => ({
      ...play,
      choice,
      status: "pending",
      next: { action: stage, acceptedAt: at.toISOString(), blockNumber, moveId },
      deadline: new Date(at.getTime() + BLOCK_WAIT_MS).toISOString(),
    });
    // Of two moves at once the first to reserve the step applies; the other is asked to read the play again.
    if (!(await ctx.reserve(seededKeys.move(play.playId, index), moveId, KEEP_MS))) throw moved();
    ctx.afterPayment(() =>
      withLock(store, seededKeys.lock(play.playId), async () => {
        const current = (await loadSeeded(store, play.playId))!;
        // Holding the step, a play already past it took this very move (a run again).
        if (current.next?.moveId !== moveId && current.stages.length === index) {
          if (current.status !== "in_progress") throw moved();
          const at = ctx.now();
          const head = await chainHead(ctx.upstream(PAYMENT_CHAIN));
          await saveSeeded(store, moving(at, head.number + 1));
          await store.set(seededKeys.live(play.playId), true, KEEP_MS);
        }
        const recorded = (await loadSeeded(store, play.playId))!;
        await saveRecord(
          store,
          playerId,
          renderSeeded(recorded, await playerOrNew(store, playerId, play.alias, ctx.now())),
        );
      }),
    );
    return renderSeeded(moving(ctx.now(), null), await playerOrNew(store, playerId, play.alias, ctx.now()));
  },
});
