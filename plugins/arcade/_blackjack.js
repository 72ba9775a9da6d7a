// Blackjack rules, shared as is by the server, the /arcade page and `npm run verify-play`; types in _blackjack.d.ts.
// European style (no hole card): the dealer takes a second card only once the player stands, so no card the
// player has not seen is drawn before the player acts. The dealer stands on soft 17; a natural beats any other 21.

/** @param {string} card */
const valueOf = (card) => {
  const rank = card.slice(0, -1);
  if (rank === "A") return 11;
  return ["J", "Q", "K"].includes(rank) ? 10 : Number(rank);
};

/** Best total: aces count 11 until that busts the hand; soft while an ace still counts 11. @param {string[]} cards */
export function totalOf(cards) {
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

/** @param {string[]} cards */
export const isNatural = (cards) => cards.length === 2 && totalOf(cards).total === 21;

/**
 * Player, dealer upcard, player, from the top of `deck`. A player's natural settles at once: the dealer takes
 * a second card and only a natural of its own makes it a push.
 * @param {string[]} deck
 */
export function deal(deck) {
  const hand = { player: [deck[0], deck[2]], dealer: [deck[1]], outcome: null };
  if (!isNatural(hand.player)) return { hand, drawn: deck.slice(0, 3) };
  const dealer = [deck[1], deck[3]];
  return { hand: { ...hand, dealer, outcome: isNatural(dealer) ? "push" : "win" }, drawn: deck.slice(0, 4) };
}

/** One more card from the top of `deck`; a bust loses, 21 stands by itself (the dealer draws on from the same deck). */
export function hit(hand, deck) {
  const next = { ...hand, player: [...hand.player, deck[0]] };
  const { total } = totalOf(next.player);
  if (total > 21) return { hand: { ...next, outcome: "loss" }, drawn: deck.slice(0, 1) };
  if (total < 21) return { hand: next, drawn: deck.slice(0, 1) };
  const stood = stand(next, deck.slice(1));
  return { hand: stood.hand, drawn: [deck[0], ...stood.drawn] };
}

/** The dealer draws from the top of `deck` below 17 and stands on every 17, soft ones included; then the hands compare. */
export function stand(hand, deck) {
  const dealer = [...hand.dealer];
  let drawn = 0;
  while (dealer.length < 2 || totalOf(dealer).total < 17) dealer.push(deck[drawn++]);
  const mine = totalOf(hand.player).total;
  const theirs = totalOf(dealer).total;
  const outcome = isNatural(dealer) ? "loss" : theirs > 21 || mine > theirs ? "win" : mine < theirs ? "loss" : "push";
  return { hand: { ...hand, dealer, outcome }, drawn: deck.slice(0, drawn) };
}
