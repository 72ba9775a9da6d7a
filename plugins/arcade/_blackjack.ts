/** Blackjack rules: one deck dealt from the top, dealer stands on soft 17, naturals settle at the deal, 21 stands by itself. */

export type Outcome = "win" | "loss" | "push";

export interface Hand {
  /** The player's cards, then the dealer's (the second one is the hole card while the hand is open). */
  player: string[];
  dealer: string[];
  /** Cards taken from the deck so far. */
  drawn: number;
  outcome: Outcome | null;
}

const valueOf = (card: string) => {
  const rank = card.slice(0, -1);
  if (rank === "A") return 11;
  return ["J", "Q", "K"].includes(rank) ? 10 : Number(rank);
};

/** Best total: aces count 11 until that busts the hand; soft while an ace still counts 11. */
export function totalOf(cards: string[]): { total: number; soft: boolean } {
  let total = 0;
  let elevens = 0;
  for (const card of cards) {
    const value = valueOf(card);
    total += value;
    if (value === 11) elevens++;
  }
  while (total > 21 && elevens > 0) {
    total -= 10;
    elevens--;
  }
  return { total, soft: elevens > 0 };
}

const natural = (cards: string[]) => cards.length === 2 && totalOf(cards).total === 21;

/** Player, dealer, player, dealer hole card; a natural on either side ends the hand at once. */
export function deal(deck: string[]): Hand {
  const hand: Hand = { player: [deck[0], deck[2]], dealer: [deck[1], deck[3]], drawn: 4, outcome: null };
  if (natural(hand.player) || natural(hand.dealer)) {
    const outcome = natural(hand.player) && natural(hand.dealer) ? "push" : natural(hand.player) ? "win" : "loss";
    return { ...hand, outcome };
  }
  return hand;
}

/** One more card; a bust loses, 21 stands by itself. */
export function hit(hand: Hand, deck: string[]): Hand {
  const next = { ...hand, player: [...hand.player, deck[hand.drawn]], drawn: hand.drawn + 1 };
  const { total } = totalOf(next.player);
  if (total > 21) return { ...next, outcome: "loss" };
  return total === 21 ? stand(next, deck) : next;
}

/** The dealer draws below 17 and stands on every 17, soft ones included; then the totals compare. */
export function stand(hand: Hand, deck: string[]): Hand {
  const dealer = [...hand.dealer];
  let drawn = hand.drawn;
  while (totalOf(dealer).total < 17) dealer.push(deck[drawn++]);
  const mine = totalOf(hand.player).total;
  const theirs = totalOf(dealer).total;
  const outcome: Outcome = theirs > 21 || mine > theirs ? "win" : mine < theirs ? "loss" : "push";
  return { ...hand, dealer, drawn, outcome };
}

/** The cards dealt so far in deck order (what the fairness record lists for recomputation). */
export const cardsDealt = (deck: string[], hand: Hand) => deck.slice(0, hand.drawn);
