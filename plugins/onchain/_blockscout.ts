import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";
import { chainInfo, chains, type ChainSlug } from "../_shared/chains.ts";

/** Chains with a Blockscout instance: the explorer-index endpoints accept only these (others are a 400). */
export const blockscoutSlugs = chains.filter((c) => "blockscout" in c).map((c) => c.slug) as ChainSlug[];

export const blockscoutChainField = v.optional(
  v.pipe(
    v.picklist(blockscoutSlugs, `must be one of: ${blockscoutSlugs.join(", ")}`),
    v.description(`Network with a Blockscout index: ${blockscoutSlugs.join(", ")}`),
  ),
  "ethereum",
);

export const blockscoutOf = (slug: ChainSlug) => chainInfo(slug).blockscout!;
export const blockscoutUpstreams = blockscoutSlugs.map(blockscoutOf);

const o = v.optional;
/** Decimal integers as Blockscout writes amounts, supplies and wei (read with BigInt). */
export const Digits = v.pipe(v.string(), v.regex(/^\d+$/, "not a decimal integer"));
const Timestamp = v.pipe(v.string(), v.isoTimestamp());

/** Blockscout's address object inside lists (holders, transfers). */
export const BlockscoutAddress = v.object({
  hash: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, "not an address")),
  is_contract: o(v.boolean()),
  name: v.nullish(v.string()),
  ens_domain_name: v.nullish(v.string()),
  public_tags: o(v.array(v.object({ display_name: o(v.string()) }))),
  metadata: v.nullish(v.object({ tags: o(v.array(v.object({ name: o(v.string()), tagType: o(v.string()) }))) })),
});
export type BlockscoutAddress = v.InferOutput<typeof BlockscoutAddress>;

/** The most telling label Blockscout has for an address: its public tag, contract name or ENS name. */
export const labelOf = (a: BlockscoutAddress) =>
  a.public_tags?.[0]?.display_name ??
  a.metadata?.tags?.find((t) => t.tagType === "name")?.name ??
  a.name ??
  a.ens_domain_name ??
  null;

export const BlockscoutToken = v.object({
  address_hash: o(v.string()),
  address: o(v.string()),
  name: v.nullable(v.string()),
  symbol: v.nullable(v.string()),
  decimals: v.nullable(Digits),
  total_supply: v.nullable(Digits),
  holders_count: v.nullish(v.string()),
  holders: v.nullish(v.string()),
  type: v.string(),
  exchange_rate: v.nullable(v.string()),
});
export type BlockscoutToken = v.InferOutput<typeof BlockscoutToken>;

/** Share of the supply as a fraction (0.0811 = 8.11%), from atomic decimal strings; null without a supply. */
export function shareOf(balance: string, supply: string | null): number | null {
  if (!supply || BigInt(supply) === 0n) return null;
  return Number((BigInt(balance) * 1_000_000n) / BigInt(supply)) / 1_000_000;
}

/** One ERC-20 transfer in `/api/v2/addresses/{a}/token-transfers` (newest first). */
const BlockscoutTokenTransfer = v.object({
  transaction_hash: v.string(),
  timestamp: Timestamp,
  method: v.nullable(v.string()),
  from: BlockscoutAddress,
  to: BlockscoutAddress,
  token: BlockscoutToken,
  total: v.nullable(v.object({ decimals: v.nullable(Digits), value: Digits })),
});
export type BlockscoutTokenTransfer = v.InferOutput<typeof BlockscoutTokenTransfer>;

const Page = <S extends v.GenericSchema>(item: S) =>
  v.object({
    items: v.array(item),
    next_page_params: v.nullable(v.record(v.string(), v.nullable(v.union([v.string(), v.number()])))),
  });

/** Follows Blockscout's keyset pages (50 items each) until `max` items or the end of the list. */
async function readPages<S extends v.GenericSchema>(
  api: Upstream,
  path: string,
  item: S,
  max: number,
  query: Record<string, string> = {},
): Promise<v.InferOutput<S>[]> {
  const shape = Page(item);
  const items: v.InferOutput<S>[] = [];
  let next: v.InferOutput<typeof shape>["next_page_params"] = {};
  while (next && items.length < max) {
    const cursor = Object.fromEntries(
      Object.entries(next).map(([k, value]) => [k, value === null ? undefined : String(value)]),
    );
    // Blockscout answers 404 for an address it has never indexed: nothing to list.
    const page: v.InferOutput<typeof shape> = await api
      .json(path, shape, { query: { ...query, ...cursor }, notFoundAs404: true })
      .catch((error: unknown) => {
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
  readPages(api, `/api/v2/addresses/${address}/token-transfers`, BlockscoutTokenTransfer, max, { type: "ERC-20" });

/** One transaction in `/api/v2/addresses/{a}/transactions` (newest first). */
const BlockscoutTransaction = v.object({
  hash: v.string(),
  timestamp: Timestamp,
  from: BlockscoutAddress,
  to: v.nullable(BlockscoutAddress),
  value: Digits,
  method: v.nullable(v.string()),
  status: v.nullable(v.string()),
  transaction_types: o(v.array(v.string())),
});
export type BlockscoutTransaction = v.InferOutput<typeof BlockscoutTransaction>;

/** `query` narrows or reorders the list: `filter: "from"` for sent only, `sort: "block_number", order: "asc"` for oldest first. */
export const readTransactions = (api: Upstream, address: string, max: number, query: Record<string, string> = {}) =>
  readPages(api, `/api/v2/addresses/${address}/transactions`, BlockscoutTransaction, max, query);

/** `/api/v2/addresses/{a}/counters`: counts as decimal strings. */
const BlockscoutCounters = v.object({
  transactions_count: Digits,
  token_transfers_count: Digits,
  gas_usage_count: Digits,
  validations_count: Digits,
});
export type BlockscoutCounters = v.InferOutput<typeof BlockscoutCounters>;

/** An address Blockscout has never indexed (404) counts zero everywhere. */
export const readCounters = (api: Upstream, address: string) =>
  api
    .json(`/api/v2/addresses/${address}/counters`, BlockscoutCounters, { notFoundAs404: true })
    .catch((error: unknown): BlockscoutCounters => {
      if (error instanceof ServiceError && error.status === 404)
        return { transactions_count: "0", token_transfers_count: "0", gas_usage_count: "0", validations_count: "0" };
      throw error;
    });

/** One internal call in `/api/v2/addresses/{a}/internal-transactions`: native coin moved by a contract. */
const BlockscoutInternalTransaction = v.object({
  transaction_hash: v.string(),
  timestamp: Timestamp,
  type: v.string(),
  from: BlockscoutAddress,
  to: v.nullable(BlockscoutAddress),
  value: Digits,
  success: v.boolean(),
});

export const readInternalTransactions = (api: Upstream, address: string, max: number) =>
  readPages(api, `/api/v2/addresses/${address}/internal-transactions`, BlockscoutInternalTransaction, max);
