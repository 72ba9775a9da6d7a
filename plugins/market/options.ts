import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { DERIBIT, indexPrice, latestDvol, optionBook, parseOption, type OptionSummary } from "./_deribit.ts";

interface Leg extends OptionSummary {
  expiry: string;
  strike: number;
  kind: "call" | "put";
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : null);
const round = (x: number, places = 4) => Math.round(x * 10 ** places) / 10 ** places;

/** The strike where option holders would receive the least at expiry. */
function maxPain(legs: Leg[]): number {
  const strikes = [...new Set(legs.map((l) => l.strike))];
  const payout = (price: number) =>
    legs.reduce(
      (sum, l) => sum + l.open_interest * Math.max(0, l.kind === "call" ? price - l.strike : l.strike - price),
      0,
    );
  return strikes.reduce((best, k) => (payout(k) < payout(best) ? k : best), strikes[0]);
}

/** Mean mark IV of the call and put nearest the underlying price. */
function atmIv(legs: Leg[]): number | null {
  const underlying = legs[0].underlying_price;
  const nearest = legs.reduce(
    (best, l) => (Math.abs(l.strike - underlying) < Math.abs(best.strike - underlying) ? l : best),
    legs[0],
  ).strike;
  const ivs = legs.filter((l) => l.strike === nearest && l.mark_iv !== null).map((l) => l.mark_iv as number);
  return ivs.length ? round(ivs.reduce((a, b) => a + b, 0) / ivs.length, 2) : null;
}

export default defineEndpoint({
  name: "options",
  method: "GET",
  price: "$0.03",
  summary:
    "Deribit BTC or ETH options snapshot: DVOL, ATM IV term structure, put/call ratios, max pain, busiest strikes",
  description:
    "From Deribit's public API (book summary by currency, DVOL index, index price). Max pain and ATM IV are computed from the book; IV in percent.",
  input: v.object({
    currency: v.optional(v.pipe(v.picklist(["BTC", "ETH"]), v.description("BTC or ETH")), "BTC"),
  }),
  output: v.object({
    currency: v.string(),
    indexPrice: v.number(),
    dvol: v.nullable(v.pipe(v.number(), v.description("Deribit volatility index, latest hourly close"))),
    openInterest: v.object({ calls: v.number(), puts: v.number(), putCallRatio: v.nullable(v.number()) }),
    volumeUsd: v.object({ calls: v.number(), puts: v.number(), putCallRatio: v.nullable(v.number()) }),
    expiries: v.array(
      v.object({
        expiry: v.string(),
        atmIv: v.nullable(v.number()),
        maxPain: v.number(),
        callOpenInterest: v.number(),
        putOpenInterest: v.number(),
      }),
    ),
    busiestStrikes: v.array(
      v.object({ instrument: v.string(), openInterest: v.number(), markIv: v.nullable(v.number()) }),
    ),
  }),
  example: {
    input: { currency: "BTC" },
    output: {
      currency: "BTC",
      indexPrice: 99412.35,
      dvol: 54.21,
      openInterest: { calls: 250120.4, puts: 150210.1, putCallRatio: 0.6006 },
      volumeUsd: { calls: 512000000, puts: 301000000, putCallRatio: 0.5879 },
      expiries: [
        {
          expiry: "2025-03-28T08:00:00.000Z",
          atmIv: 56.4,
          maxPain: 95000,
          callOpenInterest: 80210.5,
          putOpenInterest: 50110.2,
        },
      ],
      busiestStrikes: [{ instrument: "BTC-28MAR25-120000-C", openInterest: 10210.3, markIv: 61.2 }],
    },
  },
  cacheTtl: 60,
  upstreams: [DERIBIT],
  async handler({ input, upstream, now }) {
    const api = upstream(DERIBIT);
    const [book, index, dvol] = await Promise.all([
      optionBook(api, input.currency),
      indexPrice(api, input.currency),
      latestDvol(api, input.currency, now().getTime()),
    ]);
    const legs: Leg[] = book.flatMap((o) => {
      const parsed = parseOption(o.instrument_name);
      return parsed ? [{ ...o, ...parsed }] : [];
    });
    const sum = (kind: string, pick: (l: Leg) => number) =>
      round(
        legs.filter((l) => l.kind === kind).reduce((s, l) => s + pick(l), 0),
        4,
      );
    const oi = { calls: sum("call", (l) => l.open_interest), puts: sum("put", (l) => l.open_interest) };
    const vol = { calls: sum("call", (l) => l.volume_usd ?? 0), puts: sum("put", (l) => l.volume_usd ?? 0) };
    const expiries = [...new Set(legs.map((l) => l.expiry))].sort().map((expiry) => {
      const at = legs.filter((l) => l.expiry === expiry);
      const side = (kind: string) => round(at.filter((l) => l.kind === kind).reduce((s, l) => s + l.open_interest, 0));
      return {
        expiry,
        atmIv: atmIv(at),
        maxPain: maxPain(at),
        callOpenInterest: side("call"),
        putOpenInterest: side("put"),
      };
    });
    return {
      currency: input.currency,
      indexPrice: index,
      dvol,
      openInterest: { ...oi, putCallRatio: ratio(oi.puts, oi.calls) },
      volumeUsd: { ...vol, putCallRatio: ratio(vol.puts, vol.calls) },
      expiries,
      busiestStrikes: [...legs]
        .sort((a, b) => b.open_interest - a.open_interest)
        .slice(0, 10)
        .map((l) => ({ instrument: l.instrument_name, openInterest: l.open_interest, markIv: l.mark_iv })),
    };
  },
});
