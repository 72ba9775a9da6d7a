import type { Upstream } from "../../core/endpoint.ts";
import { notFound, upstreamFailed } from "../../core/runtime/errors.ts";
import type { FundingPrint } from "./_binance.ts";

export const OKX = "okx";

async function v5<T>(api: Upstream, path: string, query: Record<string, string | number | undefined>): Promise<T[]> {
  const body = await api.json<{ code: string; msg: string; data: T[] }>(path, { query });
  if (body?.code === "51001") throw notFound(`OKX: ${body.msg}`);
  if (body?.code !== "0" || !Array.isArray(body.data)) throw upstreamFailed(OKX, `OKX answered code ${body?.code}: ${body?.msg}`);
  return body.data;
}

export interface OkxFunding {
  instId: string;
  fundingRate: string;
  fundingTime: string;
  nextFundingTime: string;
}

/** GET /public/funding-rate: the current period's funding of one swap. */
export async function okxFundingRate(api: Upstream, instId: string): Promise<OkxFunding> {
  const [first] = await v5<OkxFunding>(api, "/public/funding-rate", { instId });
  if (!first) throw notFound(`OKX has no swap ${instId}`);
  return first;
}

/** GET /public/open-interest: open interest of one swap in contracts, coin and USD. */
export async function okxOpenInterest(api: Upstream, instId: string): Promise<{ instId: string; oi: string; oiCcy: string; oiUsd?: string; ts: string }> {
  const [first] = await v5<{ instId: string; oi: string; oiCcy: string; oiUsd?: string; ts: string }>(api, "/public/open-interest", { instType: "SWAP", instId });
  if (!first) throw notFound(`OKX has no swap ${instId}`);
  return first;
}

/** GET /public/funding-rate-history: newest first, 100 a page, paged with `after`; OKX keeps about three months. */
export async function okxFundingHistory(api: Upstream, instId: string, startTime: number): Promise<FundingPrint[]> {
  const prints: FundingPrint[] = [];
  let after: string | undefined;
  for (let page = 0; page < 10; page++) {
    const list = await v5<{ fundingRate: string; realizedRate: string; fundingTime: string }>(api, "/public/funding-rate-history", { instId, limit: 100, after });
    for (const x of list) if (Number(x.fundingTime) >= startTime) prints.push({ time: Number(x.fundingTime), rate: x.realizedRate || x.fundingRate });
    if (list.length < 100 || Number(list[list.length - 1].fundingTime) < startTime) break;
    after = list[list.length - 1].fundingTime;
  }
  return prints.sort((a, b) => a.time - b.time);
}
