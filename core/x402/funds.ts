import { PERMIT2_ADDRESS } from "@x402/evm";
import { parseAbi, type Address, type PublicClient } from "viem";
import { sponsoredPermitOf } from "./permit2-sponsoring.ts";

const erc20 = parseAbi([
  "function balanceOf(address owner) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function nonces(address owner) view returns (uint256)",
]);

const uint = (text: unknown) => (typeof text === "string" && /^\d{1,78}$/.test(text) ? BigInt(text) : undefined);

/**
 * What an EVM payment's payer can pay now: its balance of the token, and for a Permit2 payment no more than Permit2
 * may take (its allowance, or the amount of the EIP-2612 permit the payment carries while that permit's nonce is
 * unused, since the proxy sets the allowance to it first). The reads of one moment go out in one JSON-RPC batch.
 */
export async function evmFundsOf(client: PublicClient, payload: any, requirements: any): Promise<bigint | undefined> {
  const inner = payload?.payload;
  const asset = requirements?.asset as Address;
  const read = (functionName: "balanceOf" | "allowance" | "nonces", args: readonly Address[]) =>
    client.readContract({ address: asset, abi: erc20, functionName, args } as never) as Promise<bigint>;
  if (inner?.authorization) return read("balanceOf", [inner.authorization.from]);
  if (!inner?.permit2Authorization) return undefined;
  const owner = inner.permit2Authorization.from as Address;
  const permit = sponsoredPermitOf(payload) as { amount?: unknown; nonce?: unknown } | undefined;
  const [balance, allowance, nonce] = await Promise.all([
    read("balanceOf", [owner]),
    read("allowance", [owner, PERMIT2_ADDRESS]),
    permit?.nonce !== undefined ? read("nonces", [owner]) : undefined,
  ]);
  const permitted = nonce !== undefined && uint(permit?.nonce) === nonce ? uint(permit?.amount) : undefined;
  const spendable = permitted ?? allowance;
  if (spendable < balance) return spendable;
  return balance;
}
