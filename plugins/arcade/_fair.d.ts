// Types of _fair.js (the project does not type-check JavaScript).
export declare const HIGHERLOWER_COINS: string[];
export declare const RANKS: string[];
export declare const SUITS: string[];
export declare const SEED_FORMULA: string;
export declare const STREAM_RULE: string;
export declare const ALGORITHMS: { dice: string; blackjack: string; higherlower: string };
export declare function sha256Hex(text: string): Promise<string>;
export declare function seedOf(blockHash: string, salt: string): Promise<string>;
export declare function uniformBelow(m: number, nextWord: () => Promise<number>): Promise<number>;
export declare function streamOf(seedHex: string): { nextWord(): Promise<number>; below(m: number): Promise<number> };
export declare function rollDice(seedHex: string): Promise<[number, number]>;
export declare function shuffledDeck(seedHex: string): Promise<string[]>;
export declare function coinPair(seedHex: string): Promise<{ shown: string; hidden: string }>;

export interface Derived {
  dice?: number[];
  cards?: string[];
  shown?: string;
  hidden?: string;
}
export declare function verifyFairness(record: { blockHash: string; salt: string; seedHex: string; game: string; derived: Derived }): Promise<{
  ok: boolean;
  seedHex: string;
  recomputed: Record<string, unknown>;
  problems: string[];
}>;
