import { encodePacked, keccak256, type Hex } from "viem";

/** The contract's MAX_HITS: a hand holds at most 2 + 9 cards. */
export const MAX_HITS = 9;

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] as const;
const SUITS = ["clubs", "diamonds", "hearts", "spades"] as const;
const SUIT_SIGNS = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠" } as const;

/** The contract's shoe(seed, sideA): Fisher-Yates over 0..51 driven by keccak256(seed, sideA, i). */
export function shoe(seed: Hex, sideA: boolean): number[] {
  const cards = Array.from({ length: 52 }, (_, i) => i);
  for (let i = 51; i > 0; i--) {
    const j = Number(BigInt(keccak256(encodePacked(["bytes32", "bool", "uint8"], [seed, sideA, i]))) % BigInt(i + 1));
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/** The contract's handValue: aces count 1, or 11 when that keeps the hand at 21 or under (a soft hand). */
export function handValue(cards: number[], count: number): { total: number; soft: boolean } {
  let total = 0;
  let aces = 0;
  for (const card of cards.slice(0, count)) {
    const rank = card % 13;
    if (rank === 0) {
      total += 1;
      aces++;
    } else total += rank >= 9 ? 10 : rank + 1;
  }
  return aces > 0 && total + 10 <= 21 ? { total: total + 10, soft: true } : { total, soft: false };
}

/** The contract's score: 0 for a bust, 22 for a two-card 21, else the total. */
export function score(cards: number[], hits: number): number {
  const { total } = handValue(cards, 2 + hits);
  if (total > 21) return 0;
  return total === 21 && hits === 0 ? 22 : total;
}

export function describeCard(card: number) {
  const rank = RANKS[card % 13];
  const suit = SUITS[Math.floor(card / 13)];
  return { card, rank, suit, label: `${rank}${SUIT_SIGNS[suit]}` };
}

/** Every choice a player has: stand after 0..MAX_HITS extra cards, with what each hand is worth. */
export function handChoices(cards: number[]) {
  return Array.from({ length: MAX_HITS + 1 }, (_, hits) => {
    const { total, soft } = handValue(cards, 2 + hits);
    return { hits, total, soft, bust: total > 21, score: score(cards, hits) };
  });
}

export type HandResult = "a" | "b" | "tie";

export function compareHands(
  seed: Hex,
  hitsA: number,
  hitsB: number,
): { scoreA: number; scoreB: number; better: HandResult } {
  const scoreA = score(shoe(seed, true), hitsA);
  const scoreB = score(shoe(seed, false), hitsB);
  return { scoreA, scoreB, better: scoreA === scoreB ? "tie" : scoreA > scoreB ? "a" : "b" };
}
