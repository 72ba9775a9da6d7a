import { defineUpstreams } from "../../core/endpoint.ts";
import { sharedUpstreams } from "../_shared/upstreams.ts";

const {
  "alternative-me": alternativeMe,
  "binance-futures": binanceFutures,
  coingecko,
  hyperliquid,
  okx,
} = sharedUpstreams;

/** The market data the referees judge predictions by; the seeds come from the core's `payment-chain`. */
export const arcadeUpstreams = defineUpstreams({
  "alternative-me": alternativeMe,
  "binance-futures": binanceFutures,
  coingecko,
  hyperliquid,
  okx,
});
