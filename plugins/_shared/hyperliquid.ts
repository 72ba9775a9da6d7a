import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import type { FundingPrint } from "./funding.ts";

export const HYPERLIQUID = "hyperliquid";

/** What the code reads of metaAndAssetCtxs: [meta, contexts], one context per asset of the universe, in its order. */
const AssetContext = v.object({
  funding: v.string(),
  markPx: v.string(),
  oraclePx: v.string(),
  openInterest: v.string(),
  dayNtlVlm: v.string(),
});
const MetaAndAssetCtxs = v.pipe(
  v.tuple([v.object({ universe: v.array(v.object({ name: v.string() })) }), v.array(AssetContext)]),
  v.check(([meta, contexts]) => meta.universe.length === contexts.length, "one context per asset"),
);
export type HyperliquidAsset = { name: string } & v.InferOutput<typeof AssetContext>;
/** fundingHistory: hourly prints, `time` in unix milliseconds. */
const FundingHistory = v.array(
  v.object({ fundingRate: v.string(), time: v.pipe(v.number(), v.integer(), v.minValue(0)) }),
);

/** POST /info {type: metaAndAssetCtxs}: every perpetual with its hourly funding, mark price and open interest (in coin). */
export async function hyperliquidAssets(api: Upstream): Promise<HyperliquidAsset[]> {
  const body = await api.json("/info", MetaAndAssetCtxs, { method: "POST", body: { type: "metaAndAssetCtxs" } });
  return body[0].universe.map((asset, i) => ({ name: asset.name, ...body[1][i] }));
}

/** POST /info {type: fundingHistory}: hourly prints, oldest first, up to 500 a page; pages forward by time. */
export async function hyperliquidFundingHistory(
  api: Upstream,
  coin: string,
  startTime: number,
  endTime: number,
): Promise<FundingPrint[]> {
  const prints: FundingPrint[] = [];
  let start = startTime;
  for (let page = 0; page < 6; page++) {
    const list = await api.json("/info", FundingHistory, {
      method: "POST",
      body: { type: "fundingHistory", coin, startTime: start, endTime },
    });
    prints.push(...list.map((x) => ({ time: x.time, rate: x.fundingRate })));
    if (list.length < 500) break;
    start = list[list.length - 1].time + 1;
  }
  return prints;
}
