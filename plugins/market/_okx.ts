import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound, upstreamFailed, checkUpstream } from "../../core/runtime/errors.ts";
import { pagedFunding, type FundingPrint } from "../_shared/funding.ts";

export const OKX = "okx";

/** OKX v5's envelope: `code` "0" is success; `data` is checked against the caller's row shape then. */
const Envelope = v.object({ code: v.string(), msg: v.string(), data: v.unknown() });

async function v5<S extends v.GenericSchema>(
  api: Upstream,
  path: string,
  row: S,
  query: Record<string, string | number | undefined>,
): Promise<v.InferOutput<S>[]> {
  const body = await api.json(path, Envelope, { query });
  if (body.code === "51001") throw notFound(`OKX: ${body.msg}`);
  if (body.code !== "0") throw upstreamFailed(OKX, `OKX answered code ${body.code}: ${body.msg}`);
  return checkUpstream(OKX, v.array(row), body.data);
}

/** Milliseconds since the epoch, as OKX writes times. */
const Millis = v.pipe(v.string(), v.regex(/^\d{1,15}$/, "not unix milliseconds"));
const OkxFunding = v.object({
  instId: v.string(),
  fundingRate: v.string(),
  fundingTime: Millis,
  nextFundingTime: Millis,
});
export type OkxFunding = v.InferOutput<typeof OkxFunding>;
const OkxOpenInterest = v.object({
  instId: v.string(),
  oi: v.string(),
  oiCcy: v.string(),
  oiUsd: v.optional(v.string()),
  ts: Millis,
});
const OkxFundingPrint = v.object({ fundingRate: v.string(), realizedRate: v.string(), fundingTime: Millis });

/** GET /public/funding-rate: the current period's funding of one swap. */
export async function okxFundingRate(api: Upstream, instId: string): Promise<OkxFunding> {
  const [first] = await v5(api, "/public/funding-rate", OkxFunding, { instId });
  if (!first) throw notFound(`OKX has no swap ${instId}`);
  return first;
}

/** GET /public/open-interest: open interest of one swap in contracts, coin and USD. */
export async function okxOpenInterest(
  api: Upstream,
  instId: string,
): Promise<{ instId: string; oi: string; oiCcy: string; oiUsd?: string; ts: string }> {
  const [first] = await v5(api, "/public/open-interest", OkxOpenInterest, { instType: "SWAP", instId });
  if (!first) throw notFound(`OKX has no swap ${instId}`);
  return first;
}

/** GET /public/funding-rate-history: newest first, 100 a page, paged with `after`; OKX keeps about three months. */
export async function okxFundingHistory(api: Upstream, instId: string, startTime: number): Promise<FundingPrint[]> {
  const prints = await pagedFunding(
    { size: 100, maxPages: 10 },
    async (after) => {
      const query = { instId, limit: 100, after: after === undefined ? undefined : String(after) };
      const list = await v5(api, "/public/funding-rate-history", OkxFundingPrint, query);
      return list.map((x) => ({ time: Number(x.fundingTime), rate: x.realizedRate || x.fundingRate }));
    },
    (oldest) => (oldest.time < startTime ? undefined : oldest.time),
  );
  return prints.filter((p) => p.time >= startTime);
}
