import { Decimal } from "decimal.js";
import { encodeFunctionData, encodePacked, getAddress, keccak256, parseEther, toHex, type Address, type Hex } from "viem";
import { badRequest } from "../../core/runtime/errors.ts";
import { duelEscrowAbi } from "./_abi.ts";

/** A transaction ready for eth_sendTransaction: value is a hex quantity in wei, as JSON-RPC expects. */
export type Tx = { to: Address; data: Hex; value: Hex };

const tx = (to: Address, data: Hex, value = 0n): Tx => ({ to, data, value: toHex(value) });

export const createTx = (escrow: Address, commitment: Hex, stake: bigint) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "create", args: [commitment] }), stake);

export const joinTx = (escrow: Address, duelId: number, commitment: Hex, stake: bigint) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "join", args: [BigInt(duelId), commitment] }), stake);

export const revealTx = (escrow: Address, duelId: number, secret: Hex) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "reveal", args: [BigInt(duelId), secret] }));

export const commitTx = (escrow: Address, duelId: number, moveCommit: Hex) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "commitMoves", args: [BigInt(duelId), moveCommit] }));

export const revealMovesTx = (escrow: Address, duelId: number, hits: number, salt: Hex) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "revealMoves", args: [BigInt(duelId), hits, salt] }));

export const settleTx = (escrow: Address, duelId: number) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "settle", args: [BigInt(duelId)] }));

export const timeoutTx = (escrow: Address, duelId: number) =>
  tx(escrow, encodeFunctionData({ abi: duelEscrowAbi, functionName: "timeout", args: [BigInt(duelId)] }));

/** The seed commitment create and join take: keccak256 of the 32-byte secret. */
export const secretCommitment = (secret: Hex): Hex => keccak256(secret);

/** The contract's moveCommitment: bound to the duel and the player, so the opponent cannot reuse it. */
export const moveCommitment = (duelId: number, player: Address, hits: number, salt: Hex): Hex =>
  keccak256(encodePacked(["uint256", "address", "uint8", "bytes32"], [BigInt(duelId), getAddress(player.toLowerCase()), hits, salt]));

/** An ETH amount given as a JSON number, in wei, exactly (1e-7 is 100000000000 wei, not a float's guess). */
export function weiOf(eth: number, field: string): bigint {
  const amount = new Decimal(eth);
  if (amount.decimalPlaces() > 18) throw fieldError(field, "has more than 18 decimals");
  return parseEther(amount.toFixed());
}

/** Wei as an ETH decimal string without float rounding. */
export const ethOf = (wei: bigint): string => new Decimal(wei.toString()).div("1e18").toFixed();

/** A 400 naming the field, in the shape the schema validation uses. */
export const fieldError = (field: string, message: string) => badRequest(`${field} ${message}`, { issues: [{ field, message }] });
