import type { Address } from "viem";
import type { ChainSlug } from "../_shared/chains.ts";

/** A high-value token the whale watch follows on a chain. */
export interface MajorToken {
  symbol: string;
  address: Address;
  decimals: number;
}

const token = (symbol: string, address: Address, decimals: number): MajorToken => ({ symbol, address, decimals });

/**
 * The stablecoins, wrapped native coins and wrapped bitcoins that carry most of each chain's value, at their canonical
 * addresses (the issuers' and bridges' published deployments). Testnets have none: nothing there is worth a price.
 */
export const majorTokens: Partial<Record<ChainSlug, MajorToken[]>> = {
  ethereum: [
    token("USDC", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", 6),
    token("USDT", "0xdAC17F958D2ee523a2206206994597C13D831ec7", 6),
    token("DAI", "0x6B175474E89094C44Da98b954EedeAC495271d0F", 18),
    token("WETH", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", 18),
    token("WBTC", "0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599", 8),
  ],
  base: [
    token("USDC", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6),
    token("USDbC", "0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA", 6),
    token("DAI", "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb", 18),
    token("WETH", "0x4200000000000000000000000000000000000006", 18),
    token("cbBTC", "0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf", 8),
  ],
  optimism: [
    token("USDC", "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", 6),
    token("USDT", "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58", 6),
    token("DAI", "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1", 18),
    token("WETH", "0x4200000000000000000000000000000000000006", 18),
    token("WBTC", "0x68f180fcCe6836688e9084f035309E29Bf0A2095", 8),
  ],
  arbitrum: [
    token("USDC", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", 6),
    token("USDT", "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", 6),
    token("DAI", "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1", 18),
    token("WETH", "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1", 18),
    token("WBTC", "0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f", 8),
  ],
  polygon: [
    token("USDC", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", 6),
    token("USDT", "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", 6),
    token("DAI", "0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063", 18),
    token("WETH", "0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619", 18),
    token("WBTC", "0x1BFD67037B42Cf73acF2047067bd4F2C47D9BfD6", 8),
  ],
  bsc: [
    token("USDT", "0x55d398326f99059fF775485246999027B3197955", 18),
    token("USDC", "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", 18),
    token("WBNB", "0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c", 18),
    token("ETH", "0x2170Ed0880ac9A755fd29B2688956BD959F933F8", 18),
    token("BTCB", "0x7130d2A12B9BCbFAe4f2634d864A1Ee1Ce3Ead9c", 18),
  ],
  avalanche: [
    token("USDC", "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", 6),
    token("USDt", "0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7", 6),
    token("WAVAX", "0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7", 18),
    token("WETH.e", "0x49D5c2BdFfac6CE2BFdB6640F4F80f226bc10bAB", 18),
    token("BTC.b", "0x152b9d0FdC40C096757F570A51E494bd4b943E50", 8),
  ],
  gnosis: [
    token("WXDAI", "0xe91D153E0b41518A2Ce8Dd3D7944Fa863463a97d", 18),
    token("USDC", "0xDDAfbb505ad214D7b80b1f830fcCc89B60fb7A83", 6),
    token("USDT", "0x4ECaBa5870353805a9F068101A40E0f32ed605C6", 6),
    token("WETH", "0x6A023CCd1ff6F2045C3309768eAd9E68F978f6e1", 18),
  ],
};
