import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export const LLAMA_STABLES = "defillama-stablecoins";

type Amounts = Record<string, number> | undefined;

export interface PeggedAsset {
  id: string;
  name: string;
  symbol: string;
  pegType: string;
  pegMechanism: string;
  price: number | null;
  circulating: Amounts;
  circulatingPrevDay: Amounts;
  circulatingPrevWeek: Amounts;
  circulatingPrevMonth: Amounts;
}

/** GET /stablecoins?includePrices=true: every stablecoin with its price and circulating supply now, a day, a week and a month ago. */
export async function peggedAssets(api: Upstream): Promise<PeggedAsset[]> {
  const body = await api.json<{ peggedAssets: PeggedAsset[] }>("/stablecoins", { query: { includePrices: true } });
  if (!Array.isArray(body?.peggedAssets)) throw upstreamFailed(LLAMA_STABLES, "DefiLlama stablecoins changed shape");
  return body.peggedAssets;
}

/** Circulating supply in the peg's unit (peggedUSD -> USD). */
export const supply = (amounts: Amounts, pegType: string) => amounts?.[pegType] ?? null;

export const stablecoinUrl = (id: string) => `https://defillama.com/stablecoin/${id}`;
