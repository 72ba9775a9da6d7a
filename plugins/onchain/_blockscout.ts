import * as v from "valibot";
import { chainInfo, chains, type ChainSlug } from "./_chains.ts";

/** Chains with a Blockscout instance: the explorer-index endpoints accept only these (others are a 400). */
export const blockscoutSlugs = chains.filter((c) => "blockscout" in c).map((c) => c.slug) as ChainSlug[];

export const blockscoutChainField = v.optional(
  v.pipe(v.picklist(blockscoutSlugs, `must be one of: ${blockscoutSlugs.join(", ")}`), v.description(`Network with a Blockscout index: ${blockscoutSlugs.join(", ")}`)),
  "ethereum",
);

export const blockscoutOf = (slug: ChainSlug) => chainInfo(slug).blockscout!;
export const blockscoutUpstreams = blockscoutSlugs.map(blockscoutOf);

/** Blockscout's address object inside lists (holders, transfers). */
export interface BlockscoutAddress {
  hash: string;
  is_contract?: boolean;
  name?: string | null;
  ens_domain_name?: string | null;
  public_tags?: { display_name?: string; label?: string }[];
  metadata?: { tags?: { name?: string; tagType?: string }[] } | null;
}

/** The most telling label Blockscout has for an address: its public tag, contract name or ENS name. */
export const labelOf = (a: BlockscoutAddress) =>
  a.public_tags?.[0]?.display_name ?? a.metadata?.tags?.find((t) => t.tagType === "name")?.name ?? a.name ?? a.ens_domain_name ?? null;

export interface BlockscoutToken {
  address_hash?: string;
  address?: string;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  total_supply: string | null;
  holders_count?: string | null;
  holders?: string | null;
  type: string;
  exchange_rate: string | null;
}

/** Share of the supply as a fraction (0.0811 = 8.11%), from atomic decimal strings; null without a supply. */
export function shareOf(balance: string, supply: string | null): number | null {
  if (!supply || BigInt(supply) === 0n) return null;
  return Number((BigInt(balance) * 1_000_000n) / BigInt(supply)) / 1_000_000;
}
