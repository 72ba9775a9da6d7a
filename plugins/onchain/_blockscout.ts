import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";
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

/** One ERC-20 transfer in `/api/v2/addresses/{a}/token-transfers` (newest first). */
export interface BlockscoutTokenTransfer {
  transaction_hash: string;
  block_number?: number;
  log_index: number;
  timestamp: string;
  method: string | null;
  type: string;
  from: BlockscoutAddress;
  to: BlockscoutAddress;
  token: BlockscoutToken;
  total: { decimals: string | null; value: string } | null;
}

interface Page<T> {
  items: T[];
  next_page_params: Record<string, string | number | null> | null;
}

/** Follows Blockscout's keyset pages (50 items each) until `max` items or the end of the list. */
async function readPages<T>(api: Upstream, path: string, max: number, query: Record<string, string> = {}): Promise<T[]> {
  const items: T[] = [];
  let next: Page<T>["next_page_params"] = {};
  while (next && items.length < max) {
    const cursor = Object.fromEntries(Object.entries(next).map(([k, value]) => [k, value === null ? undefined : String(value)]));
    // Blockscout answers 404 for an address it has never indexed: nothing to list.
    const page: Page<T> = await api.json<Page<T>>(path, { query: { ...query, ...cursor }, notFoundAs404: true }).catch((error: unknown) => {
      if (error instanceof ServiceError && error.status === 404) return { items: [], next_page_params: null };
      throw error;
    });
    items.push(...page.items);
    next = page.items.length ? page.next_page_params : null;
  }
  return items.slice(0, max);
}

/** The address's most recent ERC-20 transfers, newest first. */
export const readTokenTransfers = (api: Upstream, address: string, max: number) =>
  readPages<BlockscoutTokenTransfer>(api, `/api/v2/addresses/${address}/token-transfers`, max, { type: "ERC-20" });

/** One transaction in `/api/v2/addresses/{a}/transactions` (newest first). */
export interface BlockscoutTransaction {
  hash: string;
  block_number?: number;
  timestamp: string;
  from: BlockscoutAddress;
  to: BlockscoutAddress | null;
  value: string;
  fee?: { type: string; value: string } | null;
  method: string | null;
  status: string | null;
  result?: string;
  transaction_types?: string[];
}

/** `query` narrows or reorders the list: `filter: "from"` for sent only, `sort: "block_number", order: "asc"` for oldest first. */
export const readTransactions = (api: Upstream, address: string, max: number, query: Record<string, string> = {}) =>
  readPages<BlockscoutTransaction>(api, `/api/v2/addresses/${address}/transactions`, max, query);

/** `/api/v2/addresses/{a}/counters`: counts as decimal strings. */
export interface BlockscoutCounters {
  transactions_count: string;
  token_transfers_count: string;
  gas_usage_count: string;
  validations_count: string;
}

/** An address Blockscout has never indexed (404) counts zero everywhere. */
export const readCounters = (api: Upstream, address: string) =>
  api.json<BlockscoutCounters>(`/api/v2/addresses/${address}/counters`, { notFoundAs404: true }).catch((error: unknown): BlockscoutCounters => {
    if (error instanceof ServiceError && error.status === 404) return { transactions_count: "0", token_transfers_count: "0", gas_usage_count: "0", validations_count: "0" };
    throw error;
  });

/** One internal call in `/api/v2/addresses/{a}/internal-transactions`: native coin moved by a contract. */
export interface BlockscoutInternalTransaction {
  transaction_hash: string;
  block_number?: number;
  index?: number;
  timestamp: string;
  type: string;
  from: BlockscoutAddress;
  to: BlockscoutAddress | null;
  value: string;
  success: boolean;
}

export const readInternalTransactions = (api: Upstream, address: string, max: number) =>
  readPages<BlockscoutInternalTransaction>(api, `/api/v2/addresses/${address}/internal-transactions`, max);
