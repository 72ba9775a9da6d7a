import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";

export const LLAMA_COINS = "defillama-coins";

/** Unix seconds within what a Date can hold. */
const Unix = v.pipe(v.number(), v.minValue(0), v.maxValue(8_640_000_000_000));
/** What the code reads of DefiLlama's coin prices: `coins` always comes, without the coins it does not price. */
const LlamaPrice = v.object({
  price: v.number(),
  symbol: v.string(),
  timestamp: Unix,
  confidence: v.optional(v.number()),
});
export type LlamaPrice = v.InferOutput<typeof LlamaPrice>;
const Prices = v.object({ coins: v.record(v.string(), LlamaPrice) });
const Chart = v.object({
  coins: v.record(v.string(), v.object({ prices: v.array(v.object({ timestamp: Unix, price: v.number() })) })),
});

/** GET /prices/current/{coins}: current USD prices; keys like coingecko:bitcoin or ethereum:0x...; unknown coins are left out. */
export async function currentPrices(api: Upstream, coins: string[]): Promise<Record<string, LlamaPrice>> {
  return (await api.json(`/prices/current/${coins.join(",")}`, Prices)).coins;
}

/** GET /prices/historical/{unix}/{coins}: USD prices at a past time. */
export async function historicalPrices(
  api: Upstream,
  unixSeconds: number,
  coins: string[],
): Promise<Record<string, LlamaPrice>> {
  return (await api.json(`/prices/historical/${unixSeconds}/${coins.join(",")}`, Prices)).coins;
}

/** GET /chart/{coins}?start=&span=&period=1d: a daily USD price series per coin. */
export async function dailyChart(
  api: Upstream,
  coin: string,
  startSeconds: number,
  span: number,
): Promise<{ timestamp: number; price: number }[]> {
  const body = await api.json(`/chart/${coin}`, Chart, { query: { start: startSeconds, span, period: "1d" } });
  const series = body.coins[coin]?.prices;
  if (!series) throw notFound(`DefiLlama has no chart for ${coin}`);
  return series;
}
