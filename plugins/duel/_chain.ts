import { BaseError, createPublicClient, getAddress, http, isAddress, type Address, type ContractFunctionReturnType, type Hex, type PublicClient, TimeoutError } from "viem";
import { notFound, ServiceError, unavailable, upstreamFailed, upstreamTimeout } from "../../core/runtime/errors.ts";
import { isHttpUrl } from "../../core/runtime/settings.ts";
import { duelEscrowAbi, OUTCOMES, PHASES, type Outcome, type Phase } from "./_abi.ts";

/** The configuration every chain-backed duel endpoint needs; without it they are not mounted. */
export const DUEL_CONFIG = ["DUEL_RPC_URL", "DUEL_ESCROW_ADDRESS"] as const;

export type Deployment = { rpcUrl: string; escrow: Address };

/** DUEL_RPC_URL and DUEL_ESCROW_ADDRESS when set: a URL and an address (unset, the duel endpoints are not mounted). */
export function deploymentSettings(env: NodeJS.ProcessEnv): void {
  if (env.DUEL_RPC_URL && !isHttpUrl(env.DUEL_RPC_URL)) throw new Error("DUEL_RPC_URL must be an http(s) URL");
  if (env.DUEL_ESCROW_ADDRESS && !isAddress(env.DUEL_ESCROW_ADDRESS)) throw new Error("DUEL_ESCROW_ADDRESS must be a 0x address");
}

export function deployment(): Deployment {
  const rpcUrl = process.env.DUEL_RPC_URL;
  const escrow = process.env.DUEL_ESCROW_ADDRESS;
  if (!rpcUrl || !escrow || !isAddress(escrow)) {
    throw unavailable("The duel escrow is not configured on this deployment (DUEL_RPC_URL, DUEL_ESCROW_ADDRESS)", 300);
  }
  return { rpcUrl, escrow: getAddress(escrow) };
}

const clients = new Map<string, PublicClient>();

function client(rpcUrl: string): PublicClient {
  let found = clients.get(rpcUrl);
  if (!found) {
    // JSON-RPC batching: a state read is several calls in one request, on any node (no Multicall3 needed).
    found = createPublicClient({ transport: http(rpcUrl, { batch: true, timeout: 10_000, retryCount: 1 }) });
    clients.set(rpcUrl, found);
  }
  return found;
}

/** Runs chain reads; a failing or silent node is the service's upstream failure (502/504), never charged. */
async function reading<T>(work: (c: PublicClient, escrow: Address) => Promise<T>): Promise<T> {
  const { rpcUrl, escrow } = deployment();
  try {
    return await work(client(rpcUrl), escrow);
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    if (error instanceof BaseError && error.walk((e) => e instanceof TimeoutError)) throw upstreamTimeout("duel-rpc");
    // viem's message would name the RPC URL, which may carry a provider key.
    throw upstreamFailed("duel-rpc", "The duel chain's node failed to answer");
  }
}

export type Terms = {
  escrow: Address;
  chainId: number;
  minStake: bigint;
  maxStake: bigint;
  rakeBps: number;
  rakeCapBps: number;
  tipBps: number;
  maxHits: number;
  joinWindow: number;
  actWindow: number;
  duelCount: bigint;
};

export function readTerms(): Promise<Terms> {
  return reading(async (c, escrow) => {
    const read = <N extends "minStake" | "maxStake" | "rakeBps" | "MAX_RAKE_BPS" | "TIP_BPS" | "MAX_HITS" | "joinWindow" | "actWindow" | "duelCount">(functionName: N) =>
      c.readContract({ address: escrow, abi: duelEscrowAbi, functionName });
    const [chainId, minStake, maxStake, rakeBps, rakeCapBps, tipBps, maxHits, joinWindow, actWindow, duelCount] = await Promise.all([
      c.getChainId(), read("minStake"), read("maxStake"), read("rakeBps"), read("MAX_RAKE_BPS"), read("TIP_BPS"), read("MAX_HITS"),
      read("joinWindow"), read("actWindow"), read("duelCount"),
    ]);
    return {
      escrow, chainId, minStake, maxStake, rakeBps, rakeCapBps, tipBps, maxHits,
      joinWindow: Number(joinWindow), actWindow: Number(actWindow), duelCount,
    };
  });
}

export type Duel = {
  id: number;
  players: [Address, Address | null];
  commitments: [Hex, Hex | null];
  secrets: [Hex, Hex];
  moveCommits: [Hex, Hex];
  hits: [number, number];
  seed: Hex | null;
  stake: bigint;
  /** Unix seconds; 0 when the phase has none. */
  deadline: number;
  rakeBps: number;
  acted: { a: boolean; b: boolean };
  phase: Phase;
  outcome: Outcome;
};

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
export const ZERO_WORD = `0x${"0".repeat(64)}` as Hex;

/** A duel as the contract holds it, with the chain's clock (deadlines are judged by block time, not ours). */
export function readDuel(id: number): Promise<{ duel: Duel; chainNow: number; escrow: Address; chainId: number }> {
  return reading(async (c, escrow) => {
    const [raw, block, chainId] = await Promise.all([
      c.readContract({ address: escrow, abi: duelEscrowAbi, functionName: "getDuel", args: [BigInt(id)] }),
      c.getBlock(),
      c.getChainId(),
    ]);
    if (raw.phase === 0) throw notFound(`Duel ${id} does not exist`);
    return { duel: toDuel(id, raw), chainNow: Number(block.timestamp), escrow, chainId };
  });
}

export const readDuelCount = () =>
  reading(async (c, escrow) => Number(await c.readContract({ address: escrow, abi: duelEscrowAbi, functionName: "duelCount" })));

/** Several duels at once (the feed), in one batched request. */
export function readDuels(ids: number[]): Promise<{ duels: Duel[]; chainNow: number }> {
  return reading(async (c, escrow) => {
    const [block, ...raws] = await Promise.all([
      c.getBlock(),
      ...ids.map((id) => c.readContract({ address: escrow, abi: duelEscrowAbi, functionName: "getDuel", args: [BigInt(id)] })),
    ]);
    return { duels: raws.map((raw, i) => toDuel(ids[i], raw)), chainNow: Number(block.timestamp) };
  });
}

type RawDuel = ContractFunctionReturnType<typeof duelEscrowAbi, "view", "getDuel">;

function toDuel(id: number, raw: RawDuel): Duel {
  const joined = raw.players[1] !== ZERO_ADDRESS;
  return {
    id,
    players: [raw.players[0], joined ? raw.players[1] : null],
    commitments: [raw.commitments[0], joined ? raw.commitments[1] : null],
    secrets: [raw.secrets[0], raw.secrets[1]],
    moveCommits: [raw.moveCommits[0], raw.moveCommits[1]],
    hits: [raw.hits[0], raw.hits[1]],
    seed: raw.seed === ZERO_WORD ? null : raw.seed,
    stake: raw.stake,
    deadline: Number(raw.deadline),
    rakeBps: raw.rakeBps,
    acted: { a: (raw.acted & 1) !== 0, b: (raw.acted & 2) !== 0 },
    phase: PHASES[raw.phase] ?? "none",
    outcome: OUTCOMES[raw.outcome] ?? "pending",
  };
}
