// Provably fair sampling and its checks, shared as is by the server, the /arcade page and `npm run verify-play`.
// Plain JavaScript (no build step) so a browser loads the very file the server runs; types in _fair.d.ts.
import { deal, hit, stand } from "./_blackjack.js";

/** Hidden and shown coins of higherlower, by CoinGecko id. */
export const HIGHERLOWER_COINS = [
  "bitcoin", "ethereum", "tether", "ripple", "binancecoin", "solana", "usd-coin", "dogecoin",
  "tron", "cardano", "chainlink", "stellar", "avalanche-2", "hedera-hashgraph", "bitcoin-cash", "litecoin",
  "shiba-inu", "polkadot", "uniswap", "monero", "pepe", "aave", "near", "ethereum-classic",
  "internet-computer", "aptos", "cosmos", "algorand", "filecoin", "arbitrum", "render-token", "the-graph",
];

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUITS = ["S", "H", "D", "C"];
export const DECK = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));

/** Seconds a deciding block's timestamp may read before the acceptance it follows (block clocks tick in whole seconds). */
export const CLOCK_TOLERANCE_S = 2;

export const SEED_FORMULA = 'seedHex = hex(SHA-256(blockHash + ":" + salt)), blockHash as the chain returns it (lower-case 0x hex); ' +
  "each stage's block is the first block of the network mined after that stage was accepted and recorded";
export const STREAM_RULE = 'words: SHA-256(seedHex + ":" + n) for n = 0, 1, 2, ..., each read as eight big-endian 32-bit words; ' +
  "a draw below m takes the next word w, rejects it while w >= 2^32 - (2^32 mod m) (rejection sampling, no modulo bias), and answers w mod m";

export const ALGORITHMS = {
  dice: `${STREAM_RULE}; one stage (roll): die 1 = draw below 6 + 1, then die 2 = draw below 6 + 1; over wins on 8-12, under on 2-6, seven on 7`,
  blackjack: `${STREAM_RULE}; every stage (deal, hit, stand) shuffles the cards not yet dealt, in the order ranks A..K of spades, hearts, ` +
    "diamonds, clubs, by Fisher-Yates (for i = n-1 down to 1: swap card i with card j = draw below i + 1) on its own block's seed, and deals from the top: " +
    "deal = player, dealer upcard, player (and the dealer's second card when the player has a natural); hit = one card (then the dealer's cards when it makes 21); " +
    "stand = the dealer's cards, drawing below 17 and standing on soft 17; no hole card is dealt before the player stands, and a dealer natural beats any other 21",
  higherlower: `${STREAM_RULE}; coins = HIGHERLOWER_COINS in /arcade/fair.js; stage show: shown = coins[draw below 32]; ` +
    "stage choose (the block after the choice): hidden = the draw below 31 over the coins without the shown one; a play that gave its choice at once " +
    "has one stage (pair) drawing both from one seed; real market caps decide",
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

/** @param {string} choice @param {number[]} dice */
export function diceOutcome(choice, dice) {
  const sum = dice[0] + dice[1];
  const won = choice === "over" ? sum >= 8 : choice === "under" ? sum <= 6 : sum === 7;
  return won ? "win" : "loss";
}

/** `cards` shuffled by Fisher-Yates from the seed. @param {string} seedHex @param {string[]} cards */
export async function shuffled(seedHex, cards = DECK) {
  const stream = streamOf(seedHex);
  const deck = [...cards];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** Both coins of a play that chose at once. @param {string} seedHex */
export async function coinPair(seedHex) {
  const stream = streamOf(seedHex);
  const shownAt = await stream.below(HIGHERLOWER_COINS.length);
  const rest = HIGHERLOWER_COINS.filter((_, i) => i !== shownAt);
  return { shown: HIGHERLOWER_COINS[shownAt], hidden: rest[await stream.below(rest.length)] };
}

/**
 * What one stage draws from its seed, after what the earlier stages drew (`state`). The server plays every
 * stage with this function and the verifier replays them with it.
 * @param {string} game @param {string} action @param {string} seedHex @param {any} state
 * @returns {Promise<{ state: any, drawn: (string | number)[] }>}
 */
export async function drawStage(game, action, seedHex, state = {}) {
  const step = `${game}/${action}`;
  if (step === "dice/roll") {
    const dice = await rollDice(seedHex);
    return { state: { dice }, drawn: dice };
  }
  if (step === "higherlower/pair") {
    const pair = await coinPair(seedHex);
    return { state: pair, drawn: [pair.shown, pair.hidden] };
  }
  if (step === "higherlower/show") {
    const shown = HIGHERLOWER_COINS[await streamOf(seedHex).below(HIGHERLOWER_COINS.length)];
    return { state: { shown }, drawn: [shown] };
  }
  if (step === "higherlower/choose" && state.shown) {
    const rest = HIGHERLOWER_COINS.filter((c) => c !== state.shown);
    const hidden = rest[await streamOf(seedHex).below(rest.length)];
    return { state: { ...state, hidden }, drawn: [hidden] };
  }
  if (step === "blackjack/deal" || ((step === "blackjack/hit" || step === "blackjack/stand") && state.hand && state.hand.outcome === null)) {
    const used = state.used ?? [];
    const deck = await shuffled(seedHex, DECK.filter((card) => !used.includes(card)));
    const next = action === "deal" ? deal(deck) : action === "hit" ? hit(state.hand, deck) : stand(state.hand, deck);
    return { state: { hand: next.hand, used: [...used, ...next.drawn] }, drawn: next.drawn };
  }
  throw new Error(`${game} has no stage ${action} here`);
}

/** The draws a finished replay shows. @param {string} game @param {any} state */
function derivedOf(game, state) {
  if (game === "dice") return { dice: state.dice };
  if (game === "blackjack") return { cards: state.used };
  return { shown: state.shown, hidden: state.hidden };
}

const same = (/** @type {unknown} */ a, /** @type {unknown} */ b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Recomputes a fairness record from its block hashes and salt alone, stage by stage, and lists every
 * difference: seeds, draws, what the draws add up to, and the dice or blackjack outcome.
 * @param {any} record
 */
export async function verifyFairness(record) {
  const problems = [];
  const stages = Array.isArray(record?.stages) ? record.stages : [];
  if (!["dice", "blackjack", "higherlower"].includes(record?.game)) problems.push(`game ${record?.game} uses no randomness: its referee is real market data`);
  else if (stages.length === 0) problems.push("stages: the record lists no stage");
  const first = stages[0] ?? {};
  for (const field of ["blockHash", "blockNumber", "seedHex"]) {
    if (stages.length && record[field] !== first[field]) problems.push(`${field}: ${JSON.stringify(record[field])} is not the first stage's ${JSON.stringify(first[field])}`);
  }
  /** @type {any} */
  let state = {};
  for (const [i, stage] of (problems.length ? [] : stages).entries()) {
    const seedHex = await seedOf(stage.blockHash, record.salt);
    if (seedHex !== stage.seedHex) problems.push(`stage ${i + 1} (${stage.action}) seed: recomputed ${seedHex}, the record says ${stage.seedHex}`);
    try {
      const next = await drawStage(record.game, stage.action, seedHex, state);
      if (!same(next.drawn, stage.drawn)) problems.push(`stage ${i + 1} (${stage.action}) drew ${JSON.stringify(next.drawn)}, the record says ${JSON.stringify(stage.drawn)}`);
      state = next.state;
    } catch (error) {
      problems.push(`stage ${i + 1}: ${error instanceof Error ? error.message : error}`);
      break;
    }
  }
  const recomputed = problems.length ? {} : derivedOf(record.game, state);
  for (const [name, value] of Object.entries(recomputed)) {
    if (!same(value, record.derived?.[name])) problems.push(`${name}: recomputed ${JSON.stringify(value)}, the record says ${JSON.stringify(record.derived?.[name])}`);
  }
  const outcome = problems.length ? undefined : record.game === "dice" ? diceOutcome(record.choice, state.dice) : record.game === "blackjack" ? state.hand.outcome : undefined;
  if (outcome !== undefined && record.outcome !== undefined && record.outcome !== outcome) problems.push(`outcome: the draws make it ${outcome}, the record says ${record.outcome}`);
  return { ok: problems.length === 0, seedHex: first.seedHex, recomputed, problems };
}

/**
 * Checks each stage's block against the payment chain: the number holds the hash the record names, on the
 * record's network, and was mined after the stage was accepted (within CLOCK_TOLERANCE_S).
 * @param {any} record
 * @param {{ chainId(): Promise<number>, block(n: number): Promise<{ number: number, hash: string, timestamp: number } | null> }} chain
 */
export async function verifyOnChain(record, chain) {
  const problems = [];
  const chainId = await chain.chainId();
  if (record.network !== `eip155:${chainId}`) problems.push(`network: the chain asked is eip155:${chainId}, the record says ${record.network}`);
  for (const [i, stage] of (record.stages ?? []).entries()) {
    const label = `stage ${i + 1} (${stage.action}) block ${stage.blockNumber}`;
    const block = Number.isSafeInteger(stage.blockNumber) && stage.blockNumber >= 0 ? await chain.block(stage.blockNumber) : null;
    if (!block || block.number !== stage.blockNumber) {
      problems.push(`${label}: the chain has no such block yet`);
      continue;
    }
    if (block.hash !== stage.blockHash) problems.push(`${label}: the chain's hash is ${block.hash}, the record says ${stage.blockHash}`);
    const acceptedS = Date.parse(stage.acceptedAt) / 1000;
    if (!(block.timestamp >= Math.floor(acceptedS) - CLOCK_TOLERANCE_S)) {
      problems.push(`${label}: mined at ${new Date(block.timestamp * 1000).toISOString()}, before the stage was accepted at ${stage.acceptedAt}`);
    }
  }
  return { ok: problems.length === 0, problems };
}

/**
 * A chain read over JSON-RPC (a node you choose, or the /arcade page's relay).
 * @param {string} url @param {typeof fetch} fetchImpl
 */
export function jsonRpcChain(url, fetchImpl = globalThis.fetch) {
  let id = 0;
  /** @param {string} method @param {unknown[]} params */
  const call = async (method, params) => {
    const res = await fetchImpl(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }) });
    const body = await res.json();
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  return {
    chainId: async () => Number(BigInt(await call("eth_chainId", []))),
    /** @param {number} n */
    async block(n) {
      const block = await call("eth_getBlockByNumber", [`0x${n.toString(16)}`, false]);
      return block ? { number: Number(BigInt(block.number)), hash: block.hash, timestamp: Number(BigInt(block.timestamp)) } : null;
    },
  };
}
