import { defineUpstreams } from "../../core/endpoint.ts";
import { marketUpstreams } from "../market/_upstreams.ts";

const {
  "alternative-me": alternativeMe,
  "binance-futures": binanceFutures,
  coingecko,
  hyperliquid,
  okx,
} = marketUpstreams;

/** The market data the referees judge predictions by; the seeds come from the core's `payment-chain`. */
export const arcadeUpstreams = defineUpstreams({
  "alternative-me": alternativeMe,
  "binance-futures": binanceFutures,
  coingecko,
  hyperliquid,
  okx,
});
