import { Decimal } from "decimal.js";
import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { chainOf, isNative } from "./_chains.ts";

/** What the code reads of DefiLlama's current prices: `coins` always comes, without the coins it does not price. */
const LlamaPrices = v.object({
  coins: v.record(
    v.string(),
    v.object({ price: v.number(), decimals: v.optional(v.number()), symbol: v.optional(v.string()) }),
  ),
});

export interface TokenPrice {
  usd: number;
  decimals?: number;
  symbol?: string;
}

/** The DefiLlama coin key of a token: native coins by their CoinGecko id, tokens as `<chain>:<address>`. */
export function priceKey(chainId: number, token: string): string {
  const chain = chainOf(chainId);
  return isNative(token) ? chain.nativePrice : `${chain.llama}:${token.toLowerCase()}`;
}

/** Current USD prices from DefiLlama's keyless coins API, keyed as `priceKey` names them. */
export async function usdPrices(api: Upstream, keys: string[]): Promise<Map<string, TokenPrice>> {
  const unique = [...new Set(keys)];
  const answer = await api.json(`/prices/current/${unique.join(",")}`, LlamaPrices);
  const prices = new Map<string, TokenPrice>();
  for (const key of unique) {
    const coin = answer.coins[key];
    if (coin && Number.isFinite(coin.price))
      prices.set(key, { usd: coin.price, decimals: coin.decimals, symbol: coin.symbol });
  }
  return prices;
}

/** USD value of `amount` base units at `price` (native coins have 18 decimals on every accepted chain). */
export function usdValue(amount: string, price: TokenPrice | undefined, token: string): number | undefined {
  const decimals = isNative(token) ? 18 : price?.decimals;
  if (!price || decimals === undefined) return undefined;
  return new Decimal(amount).div(new Decimal(10).pow(decimals)).mul(price.usd).toNumber();
}
