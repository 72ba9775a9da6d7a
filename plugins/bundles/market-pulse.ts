import * as v from "valibot";
import { defineBundle, skip } from "./_compose.ts";
import { assetOf, figure } from "./_digest.ts";
import {
  FearGreed,
  fearGreedOf,
  PriceDigest,
  priceDigest,
  priceParts,
  pricePlan,
  SymbolInput,
} from "./_market-parts.ts";
import { examples } from "./_examples.ts";

interface GlobalData {
  dominancePercent?: Record<string, number>;
  marketCapChange24hPercent?: number;
}
interface Mover {
  symbol: string;
  changePercent: number;
}
interface MoversData {
  gainers?: Mover[];
  losers?: Mover[];
}

const Mover = v.nullable(v.object({ symbol: v.string(), changePercent: v.number() }));

export default defineBundle({
  name: "market-pulse",
  price: "$0.01",
  summary:
    "One-call market snapshot for a symbol: price, funding, open interest, fear & greed, dominance and top movers",
  description:
    "Composes crypto-price, funding, open-interest, fear-greed, market-global and top-movers (and btc-stats for BTC). " +
    "The summary takes the asset's price and 24 h change, its mean annualized funding across venues, open interest, the fear & greed reading, BTC dominance, the market's 24 h cap change and the day's biggest gainer and loser.",
  input: v.object(SymbolInput),
  parts: {
    ...priceParts,
    fearGreed: "fear-greed",
    global: "market-global",
    movers: "top-movers",
    bitcoin: "btc-stats",
  },
  plan(input) {
    const { asset, coin } = assetOf(input.symbol, input.coin);
    return {
      ...pricePlan(asset, coin),
      fearGreed: {},
      global: {},
      movers: { window: "24h", limit: 5 },
      bitcoin: asset === "BTC" ? {} : skip("network statistics are for BTC only"),
    };
  },
  digest: v.object({
    ...PriceDigest,
    fearGreed: FearGreed,
    btcDominancePercent: figure("Bitcoin's share of the total crypto market cap, percent"),
    marketCapChange24hPercent: figure("24 h change of the total crypto market cap, percent"),
    topGainer: Mover,
    topLoser: Mover,
  }),
  summarize(data, input) {
    const global = data.global as GlobalData | undefined;
    const movers = data.movers as MoversData | undefined;
    const pick = (m?: Mover) => (m ? { symbol: m.symbol, changePercent: m.changePercent } : null);
    return {
      ...priceDigest(assetOf(input.symbol).asset, data),
      fearGreed: fearGreedOf(data.fearGreed),
      btcDominancePercent: global?.dominancePercent?.btc ?? null,
      marketCapChange24hPercent: global?.marketCapChange24hPercent ?? null,
      topGainer: pick(movers?.gainers?.[0]),
      topLoser: pick(movers?.losers?.[0]),
    };
  },
  example: examples["market-pulse"],
});
