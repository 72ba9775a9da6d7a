import { BaseError, type Address, type ContractFunctionReturnType, type Hex, type PublicClient } from "viem";
import { chainClient } from "../../core/runtime/chain-client.ts";
import { notFound, ServiceError, unavailable, upstreamFailed } from "../../core/runtime/errors.ts";
import { duelEscrowAbi, OUTCOMES, PHASES, type DuelOutcome, type Phase } from "./_abi.ts";
import { DUEL_RPC, type DuelContext } from "./_settings.ts";

/** What every chain-backed duel endpoint needs: without the escrow's address (or the node's URL) it is not mounted. */
export const DUEL_CONFIG = ["DUEL_ESCROW_ADDRESS"] as const;
export const DUEL_UPSTREAMS = [DUEL_RPC] as const;

export function deployment(ctx: DuelContext): { escrow: Address } {
  const { escrow } = ctx.settings;
  if (!escrow) throw unavailable("The duel escrow is not configured on this deployment (DUEL_ESCROW_ADDRESS)", 300);
  return { escrow };
}

/** Runs chain reads through the duel node's upstream client; a failing or silent node is its 502/503/504, never charged. */
async function reading<T>(ctx: DuelContext, work: (c: PublicClient, escrow: Address) => Promise<T>): Promise<T> {
  const { escrow } = deployment(ctx);
  try {
    return await work(chainClient(ctx.upstream(DUEL_RPC)), escrow);
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    const ours = error instanceof BaseError ? error.walk((e) => e instanceof ServiceError) : null;
    if (ours) throw ours;
    // viem's message would name the node, whose URL may carry a provider key.
    throw upstreamFailed(DUEL_RPC, "The duel chain's node failed to answer");
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

export function readTerms(ctx: DuelContext): Promise<Terms> {
  return reading(ctx, async (c, escrow) => {
    const read = <
      N extends
        | "minStake"
        | "maxStake"
        | "rakeBps"
        | "MAX_RAKE_BPS"
        | "TIP_BPS"
        | "MAX_HITS"
        | "joinWindow"
        | "actWindow"
        | "duelCount",
    >(
      functionName: N,
    ) => c.readContract({ address: escrow, abi: duelEscrowAbi, functionName });
    const [chainId, minStake, maxStake, rakeBps, rakeCapBps, tipBps, maxHits, joinWindow, actWindow, duelCount] =
      await Promise.all([
        c.getChainId(),
        read("minStake"),
        read("maxStake"),
        read("rakeBps"),
        read("MAX_RAKE_BPS"),
        read("TIP_BPS"),
        read("MAX_HITS"),
        read("joinWindow"),
        read("actWindow"),
        read("duelCount"),
      ]);
    return {
      escrow,
      chainId,
      minStake,
      maxStake,
      rakeBps,
      rakeCapBps,
      tipBps,
      maxHits,
      joinWindow: Number(joinWindow),
      actWindow: Number(actWindow),
      duelCount,
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
  outcome: DuelOutcome;
};

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
export const ZERO_WORD = `0x${"0".repeat(64)}` as Hex;

/** A duel as the contract holds it, with the chain's clock (deadlines are judged by block time, not ours). */
export function readDuel(
  ctx: DuelContext,
  id: number,
): Promise<{ duel: Duel; chainNow: number; escrow: Address; chainId: number }> {
  return reading(ctx, async (c, escrow) => {
    const [raw, block, chainId] = await Promise.all([
      c.readContract({ address: escrow, abi: duelEscrowAbi, functionName: "getDuel", args: [BigInt(id)] }),
      c.getBlock(),
      c.getChainId(),
    ]);
    if (raw.phase === 0) throw notFound(`Duel ${id} does not exist`);
    return { duel: toDuel(id, raw), chainNow: Number(block.timestamp), escrow, chainId };
  });
}

export const readDuelCount = (ctx: DuelContext) =>
  reading(ctx, async (c, escrow) =>
    Number(await c.readContract({ address: escrow, abi: duelEscrowAbi, functionName: "duelCount" })),
  );

/** Several duels at once (the feed). */
export function readDuels(ctx: DuelContext, ids: number[]): Promise<{ duels: Duel[]; chainNow: number }> {
  return reading(ctx, async (c, escrow) => {
    const [block, ...raws] = await Promise.all([
      c.getBlock(),
      ...ids.map((id) =>
        c.readContract({ address: escrow, abi: duelEscrowAbi, functionName: "getDuel", args: [BigInt(id)] }),
      ),
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
