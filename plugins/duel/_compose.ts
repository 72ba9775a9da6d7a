import type { Hex } from "viem";
import { conflict } from "../../core/runtime/errors.ts";
import { createTx, ethOf, fieldError, joinTx, weiOf, type Tx } from "./_calldata.ts";
import { readDuel, readTerms } from "./_chain.ts";
import type { DuelContext } from "./_settings.ts";
import { isExpired } from "./_view.ts";

/**
 * create(commitment, maxRakeBps) with the stake checked against the escrow's limits before anyone signs. The
 * maximum rake defaults to the rake now, so a raise between this answer and the transaction makes it revert.
 */
export async function composeCreate(
  ctx: DuelContext,
  commitment: string,
  stakeEth: number,
  stakeField: string,
  maxRakeBps?: number,
): Promise<Tx> {
  const terms = await readTerms(ctx);
  const stake = weiOf(stakeEth, stakeField);
  if (stake < terms.minStake || stake > terms.maxStake) {
    throw fieldError(stakeField, `must be between ${ethOf(terms.minStake)} and ${ethOf(terms.maxStake)} ETH`);
  }
  const accepted = maxRakeBps ?? terms.rakeBps;
  if (terms.rakeBps > accepted)
    throw conflict("rake_above_max", `The escrow's rake is ${terms.rakeBps} bps, above the ${accepted} bps you accept`);
  return createTx(terms.escrow, commitment as Hex, stake, accepted);
}

/** join(duelId, commitment) carrying exactly player A's stake; a duel that cannot be joined is a 409. */
export async function composeJoin(
  ctx: DuelContext,
  duelId: number,
  commitment: string,
  commitmentField: string,
): Promise<Tx> {
  const { duel, chainNow, escrow } = await readDuel(ctx, duelId);
  if (duel.phase !== "open") throw conflict("duel_not_open", `Duel ${duel.id} is ${duel.phase}, not open`);
  if (isExpired(duel, chainNow))
    throw conflict("duel_not_open", `Duel ${duel.id} passed its join deadline; anyone may now call timeout`);
  const lower = commitment.toLowerCase() as Hex;
  if (lower === duel.commitments[0].toLowerCase())
    throw fieldError(commitmentField, "must differ from player A's commitment");
  return joinTx(escrow, duel.id, lower, duel.stake);
}
