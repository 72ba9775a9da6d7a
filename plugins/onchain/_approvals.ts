import {
  encodeFunctionData,
  erc20Abi,
  erc721Abi,
  zeroAddress,
  type Address,
  type ContractFunctionParameters,
  type Hex,
  type PublicClient,
} from "viem";

export interface Grant {
  kind: "erc20" | "erc721-all" | "erc721-token";
  token: Address;
  spender: Address;
  tokenId: string | null;
  block: number;
  tx: Hex;
}

export interface OpenApproval extends Grant {
  /** ERC-20 allowance now; null for NFT approvals. */
  allowance: bigint | null;
}

/** Keeps the grants still in force: a non-zero allowance, an operator still approved, an NFT still owned and approved. */
export async function currentApprovals(client: PublicClient, owner: Address, grants: Grant[]): Promise<OpenApproval[]> {
  if (!grants.length) return [];
  const calls = grants.flatMap((g): ContractFunctionParameters[] => {
    if (g.kind === "erc20")
      return [
        { address: g.token, abi: erc20Abi, functionName: "allowance" as const, args: [owner, g.spender] as const },
      ];
    if (g.kind === "erc721-all")
      return [
        {
          address: g.token,
          abi: erc721Abi,
          functionName: "isApprovedForAll" as const,
          args: [owner, g.spender] as const,
        },
      ];
    const id = BigInt(g.tokenId!);
    return [
      { address: g.token, abi: erc721Abi, functionName: "getApproved" as const, args: [id] as const },
      { address: g.token, abi: erc721Abi, functionName: "ownerOf" as const, args: [id] as const },
    ];
  });
  const results = await client.multicall({ contracts: calls, allowFailure: true });
  const open: OpenApproval[] = [];
  let at = 0;
  for (const g of grants) {
    const first = results[at++];
    if (g.kind === "erc20") {
      if (first.status === "success" && (first.result as bigint) > 0n)
        open.push({ ...g, allowance: first.result as bigint });
    } else if (g.kind === "erc721-all") {
      if (first.status === "success" && first.result === true) open.push({ ...g, allowance: null });
    } else {
      const holder = results[at++];
      const approved = first.status === "success" && String(first.result).toLowerCase() === g.spender.toLowerCase();
      const owned = holder.status === "success" && String(holder.result).toLowerCase() === owner.toLowerCase();
      if (approved && owned && g.spender !== zeroAddress) open.push({ ...g, allowance: null });
    }
  }
  return open;
}

/** Calldata that withdraws the approval, sent by the owner to the token contract. */
export function revokeCall(a: Grant): Hex {
  if (a.kind === "erc20") return encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [a.spender, 0n] });
  if (a.kind === "erc721-all")
    return encodeFunctionData({ abi: erc721Abi, functionName: "setApprovalForAll", args: [a.spender, false] });
  return encodeFunctionData({ abi: erc721Abi, functionName: "approve", args: [zeroAddress, BigInt(a.tokenId!)] });
}
