// Types of _fair.js (the project does not type-check JavaScript).
import type { PlayOutcome } from "./_blackjack.js";

export declare const HIGHERLOWER_COINS: string[];
export declare const RANKS: string[];
export declare const SUITS: string[];
export declare const DECK: string[];
export declare const CLOCK_TOLERANCE_S: number;
export declare const SEED_FORMULA: string;
export declare const STREAM_RULE: string;
export declare const ALGORITHMS: { dice: string; blackjack: string; higherlower: string };
export declare function sha256Hex(text: string): Promise<string>;
export declare function seedOf(blockHash: string, salt: string): Promise<string>;
export declare function uniformBelow(m: number, nextWord: () => Promise<number>): Promise<number>;
export declare function streamOf(seedHex: string): { nextWord(): Promise<number>; below(m: number): Promise<number> };
export declare function rollDice(seedHex: string): Promise<[number, number]>;
export declare function diceOutcome(choice: string, dice: number[]): PlayOutcome;
export declare function shuffled(seedHex: string, cards?: string[]): Promise<string[]>;
export declare function coinPair(seedHex: string): Promise<{ shown: string; hidden: string }>;

/** What the stages drew so far. */
export interface DrawState {
  dice?: [number, number];
  shown?: string;
  hidden?: string;
  hand?: import("./_blackjack.js").Hand;
  used?: string[];
}
export declare function drawStage(game: string, action: string, seedHex: string, state?: DrawState): Promise<{ state: DrawState; drawn: (string | number)[] }>;

export interface Derived {
  dice?: number[];
  cards?: string[];
  shown?: string;
  hidden?: string;
}
export interface Check {
  ok: boolean;
  problems: string[];
}
export declare function verifyFairness(record: unknown): Promise<Check & { seedHex: string; recomputed: Derived }>;

export interface ChainReader {
  chainId(): Promise<number>;
  block(n: number): Promise<{ number: number; hash: string; timestamp: number } | null>;
}
export declare function verifyOnChain(record: unknown, chain: ChainReader): Promise<Check>;
export declare function jsonRpcChain(url: string, fetchImpl?: typeof fetch): ChainReader;
