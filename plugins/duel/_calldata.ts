import { Decimal } from "decimal.js";
import { encodeFunctionData, parseEther, toHex, type Address, type Hex } from "viem";
import { badRequest } from "../../core/runtime/errors.ts";
import { duelEscrowAbi } from "./_abi.ts";

/** A transaction ready for eth_sendTransaction: value is a hex quantity in wei, as JSON-RPC expects. */
export type Tx = { to: Address; data: Hex; value: Hex };

const tx = (to: Address, data: Hex, value = 0n): Tx => ({ to, data, value: toHex(value) });

export const createTx = (escrow: Address, commitment: Hex, stake: bigint, maxRakeBps: number) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "create", args: [commitment, maxRakeBps] }), stake);

export const cancelTx = (escrow: Address, duelId: number) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "cancel", args: [BigInt(duelId)] }));

export const joinTx = (escrow: Address, duelId: number, commitment: Hex, stake: bigint) =>
  tx(
    escrow,
    encodeFunctionData({ abi: duelEscrowAbi, functionName: "join", args: [BigInt(duelId), commitment] }),
    stake,
  );

/**
 * A step whose arguments are the player's secrets, composed without them: the data up to the duel id, and
 * what the player appends on their own machine (32-byte words, hex without 0x). Nothing secret reaches us.
 */
export type TxTemplate = { to: Address; value: Hex; dataPrefix: Hex; append: string[] };

const template = (
  escrow: Address,
  functionName: "reveal" | "revealMoves",
  duelId: number,
  append: string[],
): TxTemplate => {
  const zero = `0x${"00".repeat(32)}` as Hex;
  const args = functionName === "reveal" ? ([BigInt(duelId), zero] as const) : ([BigInt(duelId), 0, zero] as const);
  const full = encodeFunctionData({ abi: duelEscrowAbi, functionName, args: args as never });
  return { to: escrow, value: toHex(0n), dataPrefix: full.slice(0, 2 + 8 + 64) as Hex, append };
};

export const revealTemplate = (escrow: Address, duelId: number) =>
  template(escrow, "reveal", duelId, ["your 32-byte secret"]);

export const revealMovesTemplate = (escrow: Address, duelId: number) =>
  template(escrow, "revealMoves", duelId, ["your hits as a 32-byte big-endian number", "your 32-byte move salt"]);

export const commitTx = (escrow: Address, duelId: number, moveCommit: Hex) =>
  tx(
    escrow,
    encodeFunctionData({ abi: duelEscrowAbi, functionName: "commitMoves", args: [BigInt(duelId), moveCommit] }),
  );

export const settleTx = (escrow: Address, duelId: number) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "settle", args: [BigInt(duelId)] }));

export const timeoutTx = (escrow: Address, duelId: number) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "timeout", args: [BigInt(duelId)] }));

/** An ETH amount given as a JSON number, in wei, exactly (1e-7 is 100000000000 wei, not a float's guess). */
export function weiOf(eth: number, field: string): bigint {
  const amount = new Decimal(eth);
  if (amount.decimalPlaces() > 18) throw fieldError(field, "has more than 18 decimals");
  return parseEther(amount.toFixed());
}

/** Wei as an ETH decimal string without float rounding. */
export const ethOf = (wei: bigint): string => new Decimal(wei.toString()).div("1e18").toFixed();

/** A 400 naming the field, in the shape the schema validation uses. */
export const fieldError = (field: string, message: string) =>
  badRequest(`${field} ${message}`, { issues: [{ field, message }] });
