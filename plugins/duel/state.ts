import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { OUTCOMES, PHASES } from "./_abi.ts";
import { ethOf } from "./_calldata.ts";
import { DUEL_CONFIG, DUEL_UPSTREAMS, readDuel } from "./_chain.ts";
import { Address, DuelId, Hex32, TxSchema, WeiString } from "./_schemas.ts";
import { isExpired, nextAction, payouts, projectedOutcome, revealedHand } from "./_view.ts";
import { duelSettings } from "./_settings.ts";

const Hand = v.nullable(
  v.object({
    hits: v.pipe(v.number(), v.description("Cards taken after the first two")),
    cards: v.pipe(v.array(v.string()), v.description("The cards in draw order")),
    total: v.number(),
    soft: v.boolean(),
    bust: v.boolean(),
    score: v.pipe(v.number(), v.description("0 for a bust, 22 for a two-card 21, else the total")),
  }),
);

export default defineEndpoint({
  name: "duel/state",
  method: "GET",
  price: "$0.01",
  summary: "A duel's phase, players, escrowed stake, deadline, computed result and exact next action",
  description:
    "Read from the escrow contract; deadlines are judged by the chain's clock. The result is the recorded outcome once settled, or the one settle or timeout would produce now.",
  requires: DUEL_CONFIG,
  upstreams: DUEL_UPSTREAMS,
  settings: duelSettings,
  input: v.object({ duelId: DuelId }),
  output: v.object({
    duelId: v.number(),
    chainId: v.number(),
    contract: Address("The escrow contract"),
    phase: v.picklist(PHASES),
    players: v.object({
      a: Address("Player A, who created the duel"),
      b: v.nullable(Address("Player B, once joined")),
    }),
    stake: WeiString("Each player's stake in wei"),
    stakeEth: v.string(),
    escrowed: WeiString("Wei the escrow holds for this duel now"),
    rakeBps: v.pipe(v.number(), v.description("The rake this duel was created with, in basis points of the pot")),
    deadline: v.nullable(
      v.pipe(v.string(), v.description("End of the current phase, ISO 8601 (none once both hands are revealed)")),
    ),
    secondsLeft: v.nullable(v.number()),
    expired: v.pipe(v.boolean(), v.description("The deadline has passed: anyone may call timeout")),
    acted: v.object({ a: v.boolean(), b: v.boolean() }),
    seed: v.nullable(Hex32("keccak256(secretA, secretB), once both secrets are revealed")),
    hands: v.object({ a: Hand, b: Hand }),
    result: v.object({
      outcome: v.picklist(OUTCOMES),
      final: v.pipe(v.boolean(), v.description("Recorded on-chain; otherwise what settle or timeout would do now")),
      winner: v.nullable(v.picklist(["a", "b"])),
      payouts: v.object({
        a: WeiString("To player A"),
        b: WeiString("To player B"),
        rake: WeiString("To the house"),
        tip: WeiString("To a timeout's caller other than player A (an open duel only)"),
      }),
    }),
    next: v.nullable(
      v.object({
        action: v.picklist(["join", "cancel", "reveal", "commit", "reveal-moves", "settle", "timeout"]),
        who: v.picklist(["anyone", "a", "b", "both"]),
        players: v.array(Address("A player who still has to act")),
        until: v.nullable(v.string()),
        how: v.string(),
        tx: v.nullable(TxSchema),
      }),
    ),
  }),
  example: {
    input: { duelId: 1 },
    output: {
      duelId: 1,
      chainId: 84532,
      contract: "0x8464135c8F25Da09e49BC8782676a84730C318bC",
      phase: "ready",
      players: {
        a: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
        b: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
      },
      stake: "10000000000000000",
      stakeEth: "0.01",
      escrowed: "20000000000000000",
      rakeBps: 300,
      deadline: null,
      secondsLeft: null,
      expired: false,
      acted: {
        a: false,
        b: false,
      },
      seed: "0x71d8979cbfae9b197a4fbcc7d387b1fae9560e2f284d30b4e90c80f6bc074f57",
      hands: {
        a: {
          hits: 1,
          cards: ["10♦", "A♥", "7♠"],
          total: 18,
          soft: false,
          bust: false,
          score: 18,
        },
        b: {
          hits: 0,
          cards: ["J♦", "Q♥"],
          total: 20,
          soft: false,
          bust: false,
          score: 20,
        },
      },
      result: {
        outcome: "b-wins",
        final: false,
        winner: "b",
        payouts: {
          a: "0",
          b: "19400000000000000",
          rake: "600000000000000",
          tip: "0",
        },
      },
      next: {
        action: "settle",
        who: "anyone",
        players: [],
        until: null,
        how: "GET /duel/tx?action=settle&duelId=1",
        tx: {
          to: "0x8464135c8F25Da09e49BC8782676a84730C318bC",
          data: "0x8df828000000000000000000000000000000000000000000000000000000000000000001",
          value: "0x0",
        },
      },
    },
  },
  async handler(ctx) {
    const { input } = ctx;
    const { duel, chainNow, escrow, chainId } = await readDuel(ctx, input.duelId);
    const outcome = projectedOutcome(duel, chainNow);
    const paid = payouts(duel, outcome);
    const winner: "a" | "b" | null = outcome.startsWith("a-wins") ? "a" : outcome.startsWith("b-wins") ? "b" : null;
    const escrowed = duel.phase === "settled" ? 0n : duel.phase === "open" ? duel.stake : 2n * duel.stake;
    return {
      duelId: duel.id,
      chainId,
      contract: escrow,
      phase: duel.phase,
      players: { a: duel.players[0], b: duel.players[1] },
      stake: duel.stake.toString(),
      stakeEth: ethOf(duel.stake),
      escrowed: escrowed.toString(),
      rakeBps: duel.rakeBps,
      deadline: duel.deadline ? new Date(duel.deadline * 1000).toISOString() : null,
      secondsLeft: duel.deadline ? Math.max(0, duel.deadline - chainNow) : null,
      expired: isExpired(duel, chainNow),
      acted: duel.acted,
      seed: duel.seed,
      hands: { a: revealedHand(duel, "a"), b: revealedHand(duel, "b") },
      result: {
        outcome,
        final: duel.phase === "settled",
        winner,
        payouts: { a: paid.a.toString(), b: paid.b.toString(), rake: paid.rake.toString(), tip: paid.tip.toString() },
      },
      next: nextAction(duel, chainNow, escrow),
    };
  },
});
