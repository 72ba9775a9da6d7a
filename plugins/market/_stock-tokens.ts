import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";
import { Decimal } from "./_decimal.ts";
import { DEXSCREENER, type DexscreenerPair, dexscreenerTokenPairs } from "../_shared/dex.ts";
import type { SourcesReport } from "./_venues.ts";

export const COINBASE_STOCKS = "coinbase-tokenized-stocks";

/** One record of GET /v1/tokenized-stocks (docs.base.org/sdks/tokenized-stocks). */
/** What the code reads of Coinbase's tokenized-stocks list. */
const CoinbaseStock = v.object({
  contract_address: v.string(),
  symbol: v.string(),
  name: v.string(),
  decimals: v.number(),
  total_supply: v.number(),
  isin: v.string(),
  multiplier: v.number(),
  paused_features: v.optional(v.array(v.union([v.string(), v.number()]))),
  nav_price: v.nullish(v.number()),
  nav_price_updated_at: v.nullish(v.pipe(v.string(), v.isoTimestamp())),
});

/** A tokenized stock from its issuer's registry: only registry addresses count, look-alike tokens are never listed. */
export interface RegistryToken {
  symbol: string;
  ticker: string;
  name: string;
  isin: string;
  issuer: string;
  chain: string;
  address: string;
  decimals: number;
  totalSupply: string;
  multiplier: string;
  pausedFeatures: string[];
  navPriceUsd: string | null;
  navPriceUpdatedAt: string | null;
}

const RegistryFields = {
  symbol: v.pipe(v.string(), v.description("Token symbol as the issuer lists it")),
  ticker: v.pipe(
    v.string(),
    v.description("Ticker of the underlying share (the symbol without an issuer suffix such as AAPLc's c)"),
  ),
  name: v.string(),
  isin: v.pipe(v.string(), v.description("ISIN of the underlying share")),
  issuer: v.pipe(v.string(), v.description("Token issuer")),
  chain: v.string(),
  address: v.pipe(v.string(), v.description("Token contract address from the issuer's registry")),
  decimals: v.number(),
  totalSupply: v.pipe(v.string(), v.description("Token supply in token units (not shares)")),
  multiplier: v.pipe(v.string(), v.description("Shares per token unit; changes with dividends and splits")),
  pausedFeatures: v.pipe(
    v.array(v.string()),
    v.description("Codes of the token features the issuer has paused, as Coinbase publishes them (empty when none)"),
  ),
  navPriceUsd: v.pipe(
    v.nullable(v.string()),
    v.description("Issuer's latest Chainlink-based NAV / reference value, USD"),
  ),
  navPriceUpdatedAt: v.nullable(v.pipe(v.string(), v.description("ISO 8601"))),
};

const MarketFields = {
  priceUsd: v.pipe(
    v.nullable(v.string()),
    v.description("DEX price of the deepest pool; null when no pool trades it or prices are unavailable"),
  ),
  priceChange24hPercent: v.nullable(v.string()),
  volume24hUsd: v.pipe(
    v.nullable(v.string()),
    v.description("24 h DEX volume summed over every pool where the token is the base"),
  ),
  liquidityUsd: v.pipe(v.nullable(v.string()), v.description("Liquidity summed over those pools")),
  pools: v.pipe(v.number(), v.description("DEX pools found for the token")),
  poolUrl: v.pipe(v.nullable(v.string()), v.description("Deepest pool on DexScreener")),
};

export const StockToken = v.object({ ...RegistryFields, ...MarketFields });
export type StockToken = v.InferOutput<typeof StockToken>;

const chainOfCoinbase = "base";

/** Coinbase's symbols may carry a lowercase issuer suffix (AAPLc); the ticker is the share's. */
const tickerOf = (symbol: string) => symbol.replace(/(?<=[A-Z0-9])c$/, "").toUpperCase();

/** Coinbase's tokenized-stock registry (Base). */
export async function coinbaseStocks(api: Upstream): Promise<RegistryToken[]> {
  const body = await api.json("", v.object({ tokens: v.array(CoinbaseStock) }));
  return body.tokens
    .map((t) => ({
      symbol: t.symbol,
      ticker: tickerOf(t.symbol),
      name: t.name,
      isin: t.isin,
      issuer: "Coinbase",
      chain: chainOfCoinbase,
      address: t.contract_address,
      decimals: t.decimals,
      totalSupply: String(t.total_supply),
      multiplier: String(t.multiplier),
      pausedFeatures: (t.paused_features ?? []).map(String),
      navPriceUsd: t.nav_price === undefined || t.nav_price === null ? null : String(t.nav_price),
      navPriceUpdatedAt: t.nav_price_updated_at ? new Date(t.nav_price_updated_at).toISOString() : null,
    }))
    .sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/** The token a symbol names: its exact symbol first, then its ticker, then the ticker with Coinbase's c suffix (AAPLc); isin narrows. */
export function findBySymbol(registry: RegistryToken[], symbol: string, isin?: string): RegistryToken | undefined {
  const wanted = symbol.toUpperCase();
  const candidates = registry.filter((t) => isin === undefined || t.isin.toUpperCase() === isin.toUpperCase());
  return (
    candidates.find((t) => t.symbol.toUpperCase() === wanted) ??
    candidates.find((t) => t.ticker === wanted) ??
    candidates.find((t) => `${t.ticker}C` === wanted)
  );
}

export function matchesQuery(token: RegistryToken, q: string): boolean {
  const wanted = q.trim().toLowerCase();
  return [token.symbol, token.ticker, token.name, token.isin].some((field) => field.toLowerCase().includes(wanted));
}

const keyOf = (chain: string, address: string) => `${chain}:${address.toLowerCase()}`;

/** Every DexScreener pair where a registry token is the base, by token; 30 addresses per request. */
export async function pairsOfTokens(api: Upstream, tokens: RegistryToken[]): Promise<Map<string, DexscreenerPair[]>> {
  const byChain = new Map<string, string[]>();
  for (const t of tokens) byChain.set(t.chain, [...(byChain.get(t.chain) ?? []), t.address]);
  const requests = [...byChain].flatMap(([chain, addresses]) =>
    Array.from({ length: Math.ceil(addresses.length / 30) }, (_, i) =>
      dexscreenerTokenPairs(api, chain, addresses.slice(i * 30, i * 30 + 30)),
    ),
  );
  const pairs = (await Promise.all(requests)).flat();
  const byToken = new Map<string, DexscreenerPair[]>();
  for (const p of pairs) {
    const key = keyOf(p.chainId, p.baseToken.address);
    byToken.set(key, [...(byToken.get(key) ?? []), p]);
  }
  for (const list of byToken.values()) list.sort((a, b) => (b.liquidity?.usd ?? 0) - (a.liquidity?.usd ?? 0));
  return byToken;
}

export function pairsOf(pairs: Map<string, DexscreenerPair[]> | undefined, token: RegistryToken): DexscreenerPair[] {
  return pairs?.get(keyOf(token.chain, token.address)) ?? [];
}

const sum = (values: (number | undefined)[]) => {
  const present = values.filter((x): x is number => x !== undefined);
  return present.length === 0 ? null : present.reduce((acc, x) => acc.plus(x), new Decimal(0)).toFixed();
};

/** The registry record with its DEX market (null fields when prices were unavailable). */
export function withMarket(token: RegistryToken, pairs: DexscreenerPair[]): StockToken {
  const deepest = pairs[0];
  return {
    ...token,
    priceUsd: deepest?.priceUsd ?? null,
    priceChange24hPercent: deepest?.priceChange?.h24 === undefined ? null : String(deepest.priceChange.h24),
    volume24hUsd: sum(pairs.map((p) => p.volume?.h24)),
    liquidityUsd: sum(pairs.map((p) => p.liquidity?.usd)),
    pools: pairs.length,
    poolUrl: deepest?.url ?? null,
  };
}

/**
 * DexScreener pairs of registry tokens. Prices are optional: when DexScreener fails the tokens still come back
 * (no pairs, so null market fields) with the failure in `sources.missing`.
 */
export async function dexPairs(
  dex: Upstream,
  tokens: RegistryToken[],
  signal?: AbortSignal,
): Promise<{ pairs: Map<string, DexscreenerPair[]>; sources: SourcesReport }> {
  if (tokens.length === 0) return { pairs: new Map(), sources: { answered: [COINBASE_STOCKS], missing: [] } };
  try {
    return {
      pairs: await pairsOfTokens(dex, tokens),
      sources: { answered: [COINBASE_STOCKS, DEXSCREENER], missing: [] },
    };
  } catch (error) {
    if (signal?.aborted || !(error instanceof ServiceError)) throw error;
    return {
      pairs: new Map(),
      sources: { answered: [COINBASE_STOCKS], missing: [{ venue: DEXSCREENER, reason: error.message }] },
    };
  }
}
