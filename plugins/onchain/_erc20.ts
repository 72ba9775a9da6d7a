import { erc20Abi, formatUnits, hexToString, parseAbi, trim, type Address, type PublicClient } from "viem";
import { probe } from "../_shared/chain-node.ts";

// Early tokens (MKR, SAI) return name and symbol as bytes32.
const bytes32MetadataAbi = parseAbi([
  "function name() view returns (bytes32)",
  "function symbol() view returns (bytes32)",
]);

export interface TokenMetadata {
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  totalSupply: string | null;
}

/** ERC-20 metadata in one multicall; a field the contract does not answer is null. */
export async function readTokenMetadata(client: PublicClient, address: Address): Promise<TokenMetadata> {
  const calls = (["name", "symbol", "decimals", "totalSupply"] as const).map((functionName) => ({
    address,
    abi: erc20Abi,
    functionName,
  }));
  const [name, symbol, decimals, totalSupply] = await client.multicall({ contracts: calls, allowFailure: true });
  const text = async (result: typeof name, field: "name" | "symbol") => {
    if (result.status === "success") return String(result.result);
    const raw = await probe(client.readContract({ address, abi: bytes32MetadataAbi, functionName: field }), undefined);
    return raw ? hexToString(trim(raw, { dir: "right" })).replace(/\0/g, "") : null;
  };
  return {
    name: await text(name, "name"),
    symbol: await text(symbol, "symbol"),
    decimals: decimals.status === "success" ? Number(decimals.result) : null,
    totalSupply: totalSupply.status === "success" ? String(totalSupply.result) : null,
  };
}

export const formatAmount = (atomic: bigint | string, decimals: number | null) =>
  decimals === null ? null : formatUnits(BigInt(atomic), decimals);
