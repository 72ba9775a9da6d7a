import { definePlugin } from "../../core/endpoint.ts";
import { marketUpstreams } from "./_upstreams.ts";
import aprApy from "./apr-apy.ts";
import btcStats from "./btc-stats.ts";
import consensus from "./consensus.ts";
import cryptoHistory from "./crypto-history.ts";
import cryptoPrice from "./crypto-price.ts";
import depeg from "./depeg.ts";
import edge from "./edge.ts";
import fearGreed from "./fear-greed.ts";
import funding from "./funding.ts";
import fundingHistory from "./funding-history.ts";
import fx from "./fx.ts";
import fxHistory from "./fx-history.ts";
import hot from "./hot.ts";
import ilCalc from "./il-calc.ts";
import impermanentLossLive from "./impermanent-loss-live.ts";
import ipos from "./ipos.ts";
import liquidationLevels from "./liquidation-levels.ts";
import macro from "./macro.ts";
import marketGlobal from "./market-global.ts";
import newPairs from "./new-pairs.ts";
import news from "./news.ts";
import nftFloor from "./nft-floor.ts";
import openInterest from "./open-interest.ts";
import options from "./options.ts";
import predictions from "./predictions.ts";
import ptYtRates from "./pt-yt-rates.ts";
import secMetrics from "./sec-metrics.ts";
import stablecoinFlows from "./stablecoin-flows.ts";
import stock from "./stock.ts";
import stockHistory from "./stock-history.ts";
import stockToken from "./stock-token.ts";
import stockTokens from "./stock-tokens.ts";
import stockTokensHot from "./stock-tokens-hot.ts";
import topMovers from "./top-movers.ts";
import trendingCrypto from "./trending-crypto.ts";
import tvl from "./tvl.ts";
import yieldOptimizer from "./yield-optimizer.ts";
import yields from "./yields.ts";

export default definePlugin({
  family: "market",
  upstreams: marketUpstreams,
  endpoints: [
    aprApy,
    btcStats,
    consensus,
    cryptoHistory,
    cryptoPrice,
    depeg,
    edge,
    fearGreed,
    funding,
    fundingHistory,
    fx,
    fxHistory,
    hot,
    ilCalc,
    impermanentLossLive,
    ipos,
    liquidationLevels,
    macro,
    marketGlobal,
    newPairs,
    news,
    nftFloor,
    openInterest,
    options,
    predictions,
    ptYtRates,
    secMetrics,
    stablecoinFlows,
    stock,
    stockHistory,
    stockToken,
    stockTokens,
    stockTokensHot,
    topMovers,
    trendingCrypto,
    tvl,
    yieldOptimizer,
    yields,
  ],
});
