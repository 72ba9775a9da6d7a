import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const POLYMARKET = "polymarket-gamma";

export interface GammaMarket {
  id: string;
  question: string;
  slug: string;
  endDate?: string;
  outcomes: string;
  outcomePrices: string;
  volume24hr?: number;
  liquidityNum?: number;
  volumeNum?: number;
}

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
  const body = await api.json<GammaMarket[]>("/markets", { query: { active: true, closed: false, order: "volume24hr", ascending: false, limit } });
  if (!Array.isArray(body)) throw upstreamFailed(POLYMARKET, "Polymarket markets changed shape");
  return body.map((m) => {
    const names = parseList(m.outcomes);
    const prices = parseList(m.outcomePrices);
    return {
      id: m.id, question: m.question,
      outcomes: names.map((name, i) => ({ name, price: prices[i] ?? "0" })),
      volume24hUsd: m.volume24hr ?? 0, liquidityUsd: m.liquidityNum ?? null, endDate: m.endDate ?? null,
      url: `https://polymarket.com/market/${m.slug}`,
    };
  });
}

function parseList(text: string): string[] {
  try {
    const list = JSON.parse(text);
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}
