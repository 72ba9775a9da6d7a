// Types of _blackjack.js (the project does not type-check JavaScript).
export type PlayOutcome = "win" | "loss" | "push";

export interface Hand {
  player: string[];
  dealer: string[];
  outcome: PlayOutcome | null;
}

/** A step of a hand and the cards it took from its deck, in order. */
export interface Step {
  hand: Hand;
  drawn: string[];
}

export declare function totalOf(cards: string[]): { total: number; soft: boolean };
export declare function isNatural(cards: string[]): boolean;
export declare function deal(deck: string[]): Step;
export declare function hit(hand: Hand, deck: string[]): Step;
export declare function stand(hand: Hand, deck: string[]): Step;
