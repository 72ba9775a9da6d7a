import * as v from "valibot";

/** A perpetual's base asset as the caller may write it: BTC, BTCUSDT, BTC-USDT, BTC-USDT-SWAP, btc. */
export const PerpSymbol = v.pipe(
  v.string(),
  v.maxLength(24),
  v.regex(/^[A-Za-z0-9]{1,15}([-/]?USDT?)?(-SWAP)?$/, "a perpetual such as BTC, BTCUSDT or BTC-USDT-SWAP"),
);

/** The base asset of a perpetual symbol, upper-cased: BTCUSDT -> BTC. */
export function baseAsset(symbol: string): string {
  const upper = symbol.toUpperCase().replace(/-SWAP$/, "");
  const base = upper.replace(/[-/]?USDT?$/, "");
  return base === "" ? upper : base;
}

/** The USDT-margined linear perpetual of a base asset, in each venue's spelling. */
export const perpOn = {
  binance: (base: string) => `${base}USDT`,
  bybit: (base: string) => `${base}USDT`,
  okx: (base: string) => `${base}-USDT-SWAP`,
  hyperliquid: (base: string) => base,
};

export const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

/** The tokens a pair may name, by the CoinGecko id both DefiLlama (coingecko:<id>) and CoinGecko price; wrapped forms price as the native asset. */
export const PAIR_TOKENS: Record<string, string> = {
  ETH: "ethereum",
  WETH: "ethereum",
  BTC: "bitcoin",
  WBTC: "bitcoin",
  CBBTC: "bitcoin",
  USDC: "usd-coin",
  USDT: "tether",
  DAI: "dai",
  SOL: "solana",
  WSOL: "solana",
  STETH: "staked-ether",
  WSTETH: "wrapped-steth",
  LINK: "chainlink",
  UNI: "uniswap",
  AAVE: "aave",
  ARB: "arbitrum",
  OP: "optimism",
  POL: "polygon-ecosystem-token",
  AVAX: "avalanche-2",
  BNB: "binancecoin",
  CRV: "curve-dao-token",
  LDO: "lido-dao",
  PEPE: "pepe",
  AERO: "aerodrome-finance",
};
