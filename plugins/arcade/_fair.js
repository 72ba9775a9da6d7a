// Provably fair sampling, shared as is by the server, the /arcade page and `npm run verify-play`.
// Plain JavaScript (no build step) so a browser loads the very file the server runs; types in _fair.d.ts.

/** Hidden and shown coins of higherlower, by CoinGecko id; the seed picks two distinct entries. */
export const HIGHERLOWER_COINS = [
  "bitcoin", "ethereum", "tether", "ripple", "binancecoin", "solana", "usd-coin", "dogecoin",
  "tron", "cardano", "chainlink", "stellar", "avalanche-2", "hedera-hashgraph", "bitcoin-cash", "litecoin",
  "shiba-inu", "polkadot", "uniswap", "monero", "pepe", "aave", "near", "ethereum-classic",
  "internet-computer", "aptos", "cosmos", "algorand", "filecoin", "arbitrum", "render-token", "the-graph",
];

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUITS = ["S", "H", "D", "C"];

export const SEED_FORMULA = 'seedHex = hex(SHA-256(blockHash + ":" + salt)), blockHash as the chain returns it (lower-case 0x hex)';
export const STREAM_RULE = 'words: SHA-256(seedHex + ":" + n) for n = 0, 1, 2, ..., each read as eight big-endian 32-bit words; ' +
  "a draw below m takes the next word w, rejects it while w >= 2^32 - (2^32 mod m) (rejection sampling, no modulo bias), and answers w mod m";

export const ALGORITHMS = {
  dice: `${STREAM_RULE}; die 1 = draw below 6 + 1, then die 2 = draw below 6 + 1`,
  blackjack: `${STREAM_RULE}; deck = ranks A..K of spades, hearts, diamonds, clubs in that order, shuffled by Fisher-Yates ` +
    "(for i = 51 down to 1: swap card i with card j = draw below i + 1); cards are dealt from the top: player, dealer, player, dealer hole card, then hits, then the dealer's draws",
  higherlower: `${STREAM_RULE}; shown = coins[draw below ${32}], hidden = the draw below ${31} over the coins without the shown one (the list is HIGHERLOWER_COINS in /arcade/fair.js)`,
};

const encoder = new TextEncoder();

/** @param {string} text */
export async function sha256Hex(text) {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {string} blockHash @param {string} salt */
export const seedOf = (blockHash, salt) => sha256Hex(`${blockHash}:${salt}`);

/**
 * A uniform integer in [0, m) from a source of 32-bit words, by rejection sampling.
 * @param {number} m @param {() => Promise<number>} nextWord
 */
export async function uniformBelow(m, nextWord) {
  if (!Number.isInteger(m) || m < 1 || m > 2 ** 32) throw new RangeError(`cannot draw below ${m}`);
  const limit = 2 ** 32 - (2 ** 32 % m);
  for (;;) {
    const word = await nextWord();
    if (word < limit) return word % m;
  }
}

/** The seed's word stream and draws from it. @param {string} seedHex */
export function streamOf(seedHex) {
  let block = 0;
  /** @type {number[]} */
  let words = [];
  const nextWord = async () => {
    if (words.length === 0) {
      const digest = await sha256Hex(`${seedHex}:${block++}`);
      words = Array.from({ length: 8 }, (_, i) => parseInt(digest.slice(i * 8, i * 8 + 8), 16));
    }
    return /** @type {number} */ (words.shift());
  };
  return { nextWord, below: (/** @type {number} */ m) => uniformBelow(m, nextWord) };
}

/** Two six-sided dice. @param {string} seedHex @returns {Promise<[number, number]>} */
export async function rollDice(seedHex) {
  const stream = streamOf(seedHex);
  const first = (await stream.below(6)) + 1;
  return [first, (await stream.below(6)) + 1];
}

/** The 52-card deck shuffled by Fisher-Yates. @param {string} seedHex */
export async function shuffledDeck(seedHex) {
  const stream = streamOf(seedHex);
  const deck = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
  for (let i = deck.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** The shown and the hidden coin of higherlower. @param {string} seedHex */
export async function coinPair(seedHex) {
  const stream = streamOf(seedHex);
  const shownAt = await stream.below(HIGHERLOWER_COINS.length);
  const rest = HIGHERLOWER_COINS.filter((_, i) => i !== shownAt);
  return { shown: HIGHERLOWER_COINS[shownAt], hidden: rest[await stream.below(rest.length)] };
}

/**
 * Recomputes a fairness record from its block hash and salt alone, and lists every difference.
 * @param {{ blockHash: string, salt: string, seedHex: string, game: string, derived: { dice?: number[], cards?: string[], shown?: string, hidden?: string } }} record
 */
export async function verifyFairness(record) {
  const problems = [];
  const seedHex = await seedOf(record.blockHash, record.salt);
  if (seedHex !== record.seedHex) problems.push(`seed: recomputed ${seedHex}, the record says ${record.seedHex}`);
  const derived = record.derived ?? {};
  /** @type {Record<string, unknown>} */
  let recomputed = {};
  if (record.game === "dice") recomputed = { dice: await rollDice(seedHex) };
  else if (record.game === "blackjack") {
    if ((derived.cards?.length ?? 0) < 4) problems.push("cards: a dealt hand lists at least the 4 cards of the deal");
    recomputed = { cards: (await shuffledDeck(seedHex)).slice(0, Math.max(4, derived.cards?.length ?? 0)) };
  }
  else if (record.game === "higherlower") recomputed = await coinPair(seedHex);
  else problems.push(`game ${record.game} uses no randomness: its referee is real market data`);
  for (const [name, value] of Object.entries(recomputed)) {
    const claimed = /** @type {Record<string, unknown>} */ (derived)[name];
    if (JSON.stringify(value) !== JSON.stringify(claimed)) problems.push(`${name}: recomputed ${JSON.stringify(value)}, the record says ${JSON.stringify(claimed)}`);
  }
  return { ok: problems.length === 0, seedHex, recomputed, problems };
}
