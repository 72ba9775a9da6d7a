import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { COINGECKO, marketChart } from "./_coingecko.ts";
import { Decimal } from "./_decimal.ts";
import { historicalPrices, currentPrices, LLAMA_COINS } from "./_llama-coins.ts";
import { PAIR_TOKENS } from "../_shared/symbols.ts";

// JSON Schema has no regex flags: each letter matches either case.
const anyCase = (word: string) => [...word].map((c) => (/[A-Z]/.test(c) ? `[${c}${c.toLowerCase()}]` : c)).join("");
const symbols = Object.keys(PAIR_TOKENS).map(anyCase).join("|");
export const TokenSymbol = v.pipe(
  v.string(),
  v.maxLength(10),
  v.regex(new RegExp(`^(${symbols})$`), `one of ${Object.keys(PAIR_TOKENS).join(", ")}`),
);

export const Pair = v.pipe(
  v.string(),
  v.maxLength(20),
  v.regex(new RegExp(`^(${symbols})[/-](${symbols})$`), `two of ${Object.keys(PAIR_TOKENS).join(", ")}, e.g. ETH/USDC`),
);

export const splitPair = (pair: string): [string, string] => {
  const [a, b] = pair.toUpperCase().split(/[/-]/);
  return [a, b];
};

export interface PairPrices {
  then: [Decimal, Decimal];
  now: [Decimal, Decimal];
}

/** USD prices of two tokens `days` ago and now, from DefiLlama, else CoinGecko's market chart (first point then, last point now). */
export function pairPriceReaders(
  upstream: (name: typeof COINGECKO | typeof LLAMA_COINS) => Upstream,
  tokens: [string, string],
  days: number,
  nowMs: number,
): Record<string, () => Promise<PairPrices>> {
  const ids = tokens.map((t) => PAIR_TOKENS[t]) as [string, string];
  return {
    [LLAMA_COINS]: async () => {
      const api = upstream(LLAMA_COINS);
      const keys = [...new Set(ids)].map((id) => `coingecko:${id}`);
      const [then, now] = await Promise.all([
        historicalPrices(api, Math.floor(nowMs / 1000) - days * 86_400, keys),
        currentPrices(api, keys),
      ]);
      const pick = (prices: Record<string, { price: number }>, id: string) => {
        const p = prices[`coingecko:${id}`]?.price;
        if (typeof p !== "number") throw upstreamFailed(LLAMA_COINS, `DefiLlama has no price for ${id}`);
        return new Decimal(p);
      };
      return { then: [pick(then, ids[0]), pick(then, ids[1])], now: [pick(now, ids[0]), pick(now, ids[1])] };
    },
    [COINGECKO]: async () => {
      const api = upstream(COINGECKO);
      const charts = await Promise.all(ids.map((id) => marketChart(api, id, "usd", days)));
      const ends = charts.map(({ prices }) => {
        if (prices.length === 0) throw upstreamFailed(COINGECKO, "CoinGecko returned an empty chart");
        return [new Decimal(prices[0][1]), new Decimal(prices[prices.length - 1][1])];
      });
      return { then: [ends[0][0], ends[1][0]], now: [ends[0][1], ends[1][1]] };
    },
  };
}
