import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { binanceFundingHistory } from "../_shared/binance.ts";
import { hyperliquidFundingHistory } from "../_shared/hyperliquid.ts";
import type { PlayOutcome } from "./_blackjack.js";

export type PredictionGame = "funding" | "candle" | "feargreed";

/** What the real data said: the observed value and its direction (1 up or positive, -1 down or negative, 0 neither). */
export interface Observation {
  observed: string;
  direction: -1 | 0 | 1;
}

export interface Reference {
  value: string;
  /** When the reference value was published (ISO 8601). */
  at: string;
}

export interface Referee {
  upstream: string;
  source: string;
  url: string;
  /** The choice that wins when the data goes up (the other wins when it goes down). */
  upChoice: string;
  /** What the play compares against, read at play time (only the index game needs one). */
  reference?(api: Upstream): Promise<Reference>;
  settlesAt(playedAt: Date, reference?: Reference): Date;
  /** How long after settlesAt the data may take before the play is void. */
  graceMs: number;
  /** Undefined while the data is not published yet. */
  observe(api: Upstream, settlesAt: Date, reference?: Reference): Promise<Observation | undefined>;
}

const minuteMs = 60_000;
const hourMs = 3_600_000;
const fundingPeriodMs = 8 * hourMs;
const direction = (x: number): Observation["direction"] => (x > 0 ? 1 : x < 0 ? -1 : 0);

export function outcomeOf(referee: Referee, choice: string, seen: Observation): PlayOutcome {
  if (seen.direction === 0) return "push";
  return (seen.direction === 1) === (choice === referee.upChoice) ? "win" : "loss";
}

/** Venues the funding game can be judged by: Binance refuses US addresses (451), Hyperliquid's info API does not. */
export const fundingVenues = ["binance-futures", "hyperliquid"] as const;
export type FundingVenue = (typeof fundingVenues)[number];

const hyperliquidFunding: Referee = {
  upstream: "hyperliquid",
  source:
    "Hyperliquid BTC perpetual, the hourly funding print after next: entries for a print close when its hour opens, " +
    "so no play is for a print whose predicted rate is already published",
  url: "https://app.hyperliquid.xyz/fundingComparison",
  upChoice: "positive",
  settlesAt: (playedAt) => new Date((Math.floor(playedAt.getTime() / hourMs) + 2) * hourMs),
  graceMs: 2 * hourMs,
  async observe(api, settlesAt) {
    const from = settlesAt.getTime();
    const print = (await hyperliquidFundingHistory(api, "BTC", from, from + hourMs - 1)).find((p) => p.time >= from);
    return print ? { observed: print.rate, direction: direction(Number(print.rate)) } : undefined;
  },
};

/** The referee of a game; a funding play is judged by the venue it was accepted under. */
export const refereeOf = (game: PredictionGame, venue: FundingVenue = "binance-futures"): Referee =>
  game === "funding" && venue === "hyperliquid" ? hyperliquidFunding : referees[game];

/** Every upstream a referee may read. */
export const refereeUpstreams = [...fundingVenues, "okx", "alternative-me"];

export const referees: Record<PredictionGame, Referee> = {
  funding: {
    upstream: "binance-futures",
    source:
      "Binance USDⓈ-M BTCUSDT perpetual, the funding print after next (00:00, 08:00, 16:00 UTC): entries for a print close when its 8-hour window opens, " +
      "so no play is for a print whose predicted rate is already published",
    url: "https://www.binance.com/en/futures/funding-history/perpetual/funding-fee-history",
    upChoice: "positive",
    settlesAt: (playedAt) => new Date((Math.floor(playedAt.getTime() / fundingPeriodMs) + 2) * fundingPeriodMs),
    graceMs: 2 * hourMs,
    async observe(api, settlesAt) {
      const from = settlesAt.getTime();
      const [print] = await binanceFundingHistory(api, "BTCUSDT", from, from + 3_600_000);
      return print ? { observed: print.rate, direction: direction(Number(print.rate)) } : undefined;
    },
  },
  candle: {
    upstream: "okx",
    source:
      "OKX BTC-USDT spot, the 1-minute candle that opens after the play is accepted (it settles when that candle closes, 60 to 120 s later): " +
      "green when it closes above its open",
    url: "https://www.okx.com/trade-spot/btc-usdt",
    upChoice: "green",
    settlesAt: (playedAt) => new Date((Math.floor(playedAt.getTime() / minuteMs) + 2) * minuteMs),
    graceMs: 15 * minuteMs,
    async observe(api, settlesAt) {
      const opens = settlesAt.getTime() - minuteMs;
      const body = await api.json<{ code: string; msg: string; data: string[][] }>("/market/candles", {
        query: { instId: "BTC-USDT", bar: "1m", after: settlesAt.getTime(), limit: 1 },
      });
      if (body?.code !== "0" || !Array.isArray(body.data))
        throw upstreamFailed("okx", `OKX answered code ${body?.code}: ${body?.msg}`);
      const candle = body.data[0];
      if (!candle || Number(candle[0]) !== opens || candle[8] !== "1") return undefined;
      const [, open, , , close] = candle;
      return { observed: `open ${open}, close ${close}`, direction: direction(Number(close) - Number(open)) };
    },
  },
  feargreed: {
    upstream: "alternative-me",
    source:
      "alternative.me Crypto Fear & Greed Index: the next daily value against the one published at play time (greed when higher)",
    url: "https://alternative.me/crypto/fear-and-greed-index/",
    upChoice: "greed",
    async reference(api) {
      const [latest] = await fearGreed(api, 1);
      if (!latest) throw upstreamFailed("alternative-me", "the Fear & Greed Index answered no value");
      return latest;
    },
    settlesAt: (_playedAt, reference) => new Date(Date.parse(reference!.at) + 86_400_000),
    graceMs: 36 * hourMs,
    async observe(api, _settlesAt, reference) {
      const next = (await fearGreed(api, 3))
        .filter((x) => x.at > reference!.at)
        .sort((a, b) => a.at.localeCompare(b.at))[0];
      return next
        ? { observed: next.value, direction: direction(Number(next.value) - Number(reference!.value)) }
        : undefined;
    },
  },
};

/** GET /fng/?limit=n: newest first, values and UNIX-second timestamps as strings. */
async function fearGreed(api: Upstream, limit: number): Promise<Reference[]> {
  const body = await api.json<{ data?: { value: string; timestamp: string }[]; metadata?: { error: string | null } }>(
    "/fng/",
    { query: { limit, format: "json" } },
  );
  if (!Array.isArray(body?.data) || body.metadata?.error)
    throw upstreamFailed("alternative-me", `the Fear & Greed Index answered ${body?.metadata?.error ?? "no data"}`);
  return body.data.map((x) => ({ value: x.value, at: new Date(Number(x.timestamp) * 1000).toISOString() }));
}
