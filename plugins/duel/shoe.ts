import * as v from "valibot";
import type { Hex } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { Hex32 } from "./_schemas.ts";
import { describeCard, handChoices, shoe } from "./_shoe.ts";

const Card = v.object({
  position: v.pipe(v.number(), v.description("Draw order, 0 first")),
  card: v.pipe(
    v.number(),
    v.description("0..51: rank = card % 13 (0 = ace), suit = card / 13 (clubs, diamonds, hearts, spades)"),
  ),
  rank: v.string(),
  suit: v.picklist(["clubs", "diamonds", "hearts", "spades"]),
  label: v.string(),
});

export default defineEndpoint({
  name: "duel/shoe",
  method: "GET",
  path: "/duel/shoe",
  price: "$0",
  summary: "One side's deterministic shoe for a seed: the 52 cards in draw order and every hand it allows",
  description:
    "The same math as the contract's shoe(seed, sideA): Fisher-Yates over 0..51 with j = keccak256(abi.encodePacked(seed, sideA, uint8(i))) % (i + 1). A hand is the first 2 + hits cards; aces count 1 or 11; score 0 is a bust, 22 a two-card 21.",
  input: v.object({
    seed: Hex32("The duel's shared seed (/duel/seed)"),
    sideA: v.pipe(v.boolean(), v.description("true for player A's cards, false for player B's")),
  }),
  output: v.object({
    seed: v.string(),
    sideA: v.boolean(),
    cards: v.array(Card),
    hands: v.array(
      v.object({
        hits: v.pipe(v.number(), v.description("Stand after the first 2 + hits cards")),
        total: v.number(),
        soft: v.boolean(),
        bust: v.boolean(),
        score: v.number(),
      }),
    ),
  }),
  example: {
    input: { seed: "0x71d8979cbfae9b197a4fbcc7d387b1fae9560e2f284d30b4e90c80f6bc074f57", sideA: true },
    output: {
      seed: "0x71d8979cbfae9b197a4fbcc7d387b1fae9560e2f284d30b4e90c80f6bc074f57",
      sideA: true,
      cards: [
        { position: 0, card: 22, rank: "10", suit: "diamonds", label: "10♦" },
        { position: 1, card: 26, rank: "A", suit: "hearts", label: "A♥" },
        { position: 2, card: 45, rank: "7", suit: "spades", label: "7♠" },
        { position: 3, card: 31, rank: "6", suit: "hearts", label: "6♥" },
        { position: 4, card: 50, rank: "Q", suit: "spades", label: "Q♠" },
        { position: 5, card: 43, rank: "5", suit: "spades", label: "5♠" },
        { position: 6, card: 32, rank: "7", suit: "hearts", label: "7♥" },
        { position: 7, card: 24, rank: "Q", suit: "diamonds", label: "Q♦" },
        { position: 8, card: 51, rank: "K", suit: "spades", label: "K♠" },
        { position: 9, card: 28, rank: "3", suit: "hearts", label: "3♥" },
        { position: 10, card: 25, rank: "K", suit: "diamonds", label: "K♦" },
        { position: 11, card: 42, rank: "4", suit: "spades", label: "4♠" },
        { position: 12, card: 12, rank: "K", suit: "clubs", label: "K♣" },
        { position: 13, card: 5, rank: "6", suit: "clubs", label: "6♣" },
        { position: 14, card: 16, rank: "4", suit: "diamonds", label: "4♦" },
        { position: 15, card: 29, rank: "4", suit: "hearts", label: "4♥" },
        { position: 16, card: 38, rank: "K", suit: "hearts", label: "K♥" },
        { position: 17, card: 2, rank: "3", suit: "clubs", label: "3♣" },
        { position: 18, card: 44, rank: "6", suit: "spades", label: "6♠" },
        { position: 19, card: 48, rank: "10", suit: "spades", label: "10♠" },
        { position: 20, card: 10, rank: "J", suit: "clubs", label: "J♣" },
        { position: 21, card: 37, rank: "Q", suit: "hearts", label: "Q♥" },
        { position: 22, card: 35, rank: "10", suit: "hearts", label: "10♥" },
        { position: 23, card: 20, rank: "8", suit: "diamonds", label: "8♦" },
        { position: 24, card: 27, rank: "2", suit: "hearts", label: "2♥" },
        { position: 25, card: 17, rank: "5", suit: "diamonds", label: "5♦" },
        { position: 26, card: 33, rank: "8", suit: "hearts", label: "8♥" },
        { position: 27, card: 1, rank: "2", suit: "clubs", label: "2♣" },
        { position: 28, card: 8, rank: "9", suit: "clubs", label: "9♣" },
        { position: 29, card: 47, rank: "9", suit: "spades", label: "9♠" },
        { position: 30, card: 34, rank: "9", suit: "hearts", label: "9♥" },
        { position: 31, card: 4, rank: "5", suit: "clubs", label: "5♣" },
        { position: 32, card: 39, rank: "A", suit: "spades", label: "A♠" },
        { position: 33, card: 21, rank: "9", suit: "diamonds", label: "9♦" },
        { position: 34, card: 23, rank: "J", suit: "diamonds", label: "J♦" },
        { position: 35, card: 7, rank: "8", suit: "clubs", label: "8♣" },
        { position: 36, card: 40, rank: "2", suit: "spades", label: "2♠" },
        { position: 37, card: 9, rank: "10", suit: "clubs", label: "10♣" },
        { position: 38, card: 49, rank: "J", suit: "spades", label: "J♠" },
        { position: 39, card: 30, rank: "5", suit: "hearts", label: "5♥" },
        { position: 40, card: 15, rank: "3", suit: "diamonds", label: "3♦" },
        { position: 41, card: 6, rank: "7", suit: "clubs", label: "7♣" },
        { position: 42, card: 0, rank: "A", suit: "clubs", label: "A♣" },
        { position: 43, card: 41, rank: "3", suit: "spades", label: "3♠" },
        { position: 44, card: 11, rank: "Q", suit: "clubs", label: "Q♣" },
        { position: 45, card: 13, rank: "A", suit: "diamonds", label: "A♦" },
        { position: 46, card: 46, rank: "8", suit: "spades", label: "8♠" },
        { position: 47, card: 18, rank: "6", suit: "diamonds", label: "6♦" },
        { position: 48, card: 3, rank: "4", suit: "clubs", label: "4♣" },
        { position: 49, card: 19, rank: "7", suit: "diamonds", label: "7♦" },
        { position: 50, card: 36, rank: "J", suit: "hearts", label: "J♥" },
        { position: 51, card: 14, rank: "2", suit: "diamonds", label: "2♦" },
      ],
      hands: [
        { hits: 0, total: 21, soft: true, bust: false, score: 22 },
        { hits: 1, total: 18, soft: false, bust: false, score: 18 },
        { hits: 2, total: 24, soft: false, bust: true, score: 0 },
        { hits: 3, total: 34, soft: false, bust: true, score: 0 },
        { hits: 4, total: 39, soft: false, bust: true, score: 0 },
        { hits: 5, total: 46, soft: false, bust: true, score: 0 },
        { hits: 6, total: 56, soft: false, bust: true, score: 0 },
        { hits: 7, total: 66, soft: false, bust: true, score: 0 },
        { hits: 8, total: 69, soft: false, bust: true, score: 0 },
        { hits: 9, total: 79, soft: false, bust: true, score: 0 },
      ],
    },
  },
  handler({ input }) {
    const cards = shoe(input.seed as Hex, input.sideA);
    return {
      seed: input.seed,
      sideA: input.sideA,
      cards: cards.map((card, position) => ({ position, ...describeCard(card) })),
      hands: handChoices(cards),
    };
  },
});
