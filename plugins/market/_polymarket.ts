import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

export const POLYMARKET = "polymarket-gamma";

/** Outcomes and their prices arrive as JSON-encoded lists of strings. */
const EncodedList = v.pipe(v.string(), v.check(isEncodedList, "not a JSON-encoded list"));
/** What the code reads of a Gamma market. */
const GammaMarket = v.object({
  id: v.string(),
  question: v.string(),
  slug: v.string(),
  endDate: v.optional(v.string()),
  outcomes: EncodedList,
  outcomePrices: EncodedList,
  volume24hr: v.optional(v.number()),
  liquidityNum: v.optional(v.number()),
});

export interface PredictionMarket {
  id: string;
  question: string;
  outcomes: { name: string; price: string }[];
  volume24hUsd: number;
  liquidityUsd: number | null;
  endDate: string | null;
  url: string;
}

/** GET /markets?active=true&closed=false&order=volume24hr: open markets, busiest first (outcomes arrive as JSON-encoded strings). */
export async function openMarkets(api: Upstream, limit = 100): Promise<PredictionMarket[]> {
  const body = await api.json("/markets", v.array(GammaMarket), {
    query: { active: true, closed: false, order: "volume24hr", ascending: false, limit },
  });
  return body.map((m) => {
    const names = parseList(m.outcomes);
    const prices = parseList(m.outcomePrices);
    return {
      id: m.id,
      question: m.question,
      outcomes: names.map((name, i) => ({ name, price: prices[i] ?? "0" })),
      volume24hUsd: m.volume24hr ?? 0,
      liquidityUsd: m.liquidityNum ?? null,
      endDate: m.endDate ?? null,
      url: `https://polymarket.com/market/${m.slug}`,
    };
  });
}

function isEncodedList(text: string): boolean {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

function parseList(text: string): string[] {
  try {
    const list = JSON.parse(text);
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}
