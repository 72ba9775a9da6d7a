import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import type { FundingPrint } from "./_binance.ts";

export const HYPERLIQUID = "hyperliquid";

export interface HyperliquidAsset {
  name: string;
  funding: string;
  markPx: string;
  oraclePx: string;
  openInterest: string;
  dayNtlVlm: string;
}

/** POST /info {type: metaAndAssetCtxs}: every perpetual with its hourly funding, mark price and open interest (in coin). */
export async function hyperliquidAssets(api: Upstream): Promise<HyperliquidAsset[]> {
  const body = await api.json<[{ universe: { name: string }[] }, Omit<HyperliquidAsset, "name">[]]>("/info", { method: "POST", body: { type: "metaAndAssetCtxs" } });
  if (!Array.isArray(body) || !Array.isArray(body[0]?.universe) || !Array.isArray(body[1])) throw upstreamFailed(HYPERLIQUID, "Hyperliquid metaAndAssetCtxs changed shape");
  return body[0].universe.map((asset, i) => ({ name: asset.name, ...body[1][i] }));
}

/** POST /info {type: fundingHistory}: hourly prints, oldest first, up to 500 a page; pages forward by time. */
export async function hyperliquidFundingHistory(api: Upstream, coin: string, startTime: number, endTime: number): Promise<FundingPrint[]> {
  const prints: FundingPrint[] = [];
  let start = startTime;
  for (let page = 0; page < 6; page++) {
    const list = await api.json<{ coin: string; fundingRate: string; time: number }[]>("/info", {
      method: "POST", body: { type: "fundingHistory", coin, startTime: start, endTime },
    });
    if (!Array.isArray(list)) throw upstreamFailed(HYPERLIQUID, "Hyperliquid fundingHistory changed shape");
    prints.push(...list.map((x) => ({ time: x.time, rate: x.fundingRate })));
    if (list.length < 500) break;
    start = list[list.length - 1].time + 1;
  }
  return prints;
}
