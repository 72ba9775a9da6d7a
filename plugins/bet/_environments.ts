import { getAddress, isAddress, type Address } from "viem";
import { defineSettings, type Env } from "../../core/endpoint.ts";
import { integerSetting } from "../../core/runtime/settings.ts";
import { slippagePercent } from "./_odds.ts";

/**
 * Azuro v3 environments the composer serves (research/onchain-products.md 1.1, toolkit `config.ts`, deployment
 * addresses v3.0.13). The first is the default: USDT on Polygon. Gnosis is deprecated upstream and may list no games.
 */
export const environmentNames = ["PolygonUSDT", "GnosisXDAI"] as const;
export type EnvironmentName = (typeof environmentNames)[number];

export interface BetEnvironment {
  name: EnvironmentName;
  chainId: number;
  betToken: { symbol: string; address: Address; decimals: number };
  /** ClientCore: the EIP-712 verifyingContract and `clientData.core`. */
  core: Address;
  /** Relayer: the bet-token spender the bettor approves. */
  relayer: Address;
  /** The chain's node, to ask a contract wallet (ERC-1271) whether it signed. */
  rpc: "polygon-rpc" | "gnosis-rpc";
}

const defaults: Record<EnvironmentName, BetEnvironment> = {
  PolygonUSDT: {
    name: "PolygonUSDT",
    chainId: 137,
    betToken: { symbol: "USDT", address: "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", decimals: 6 },
    core: "0xF9548Be470A4e130c90ceA8b179FCD66D2972AC7",
    relayer: "0x8dA05c0021e6b35865FDC959c54dCeF3A4AbBa9d",
    rpc: "polygon-rpc",
  },
  GnosisXDAI: {
    name: "GnosisXDAI",
    chainId: 100,
    betToken: { symbol: "WXDAI", address: "0xe91D153E0b41518A2Ce8Dd3D7944Fa863463a97d", decimals: 18 },
    core: "0x0e00E6ffcb5E207B800eec9e02999D1Fd9e448f2",
    relayer: "0x40eb85018fA18dDd10a433C8c40ca8D6744d8B32",
    rpc: "gnosis-rpc",
  },
};

/** The SDK's consent text (`@azuro-org/sdk` useBet); it is part of what the bettor signs. */
export const attention = "By signing this transaction, I agree to place a bet for an event on Azuro Protocol";

/** Sent with every quote. */
export const disclaimer = [
  "The service never holds funds, never signs a bet and never sponsors gas: your wallet signs typedData with eth_signTypedData_v4 and pays the relayer fee.",
  "Before submitting, approve approval.spender (Azuro's Relayer) for at least approval.amountRaw of the bet token, or the relayer rejects the order.",
  `The order is placed only at odds of at least minOdds (${slippagePercent}% slippage) and only until expiresAt.`,
  "The bet becomes an NFT owned by the bettor; winnings are claimed on-chain from Azuro's liquidity pool. Betting can lose the whole stake; check it is legal where you are.",
];

const zeroAddress: Address = "0x0000000000000000000000000000000000000000";

/** An environment with its contract addresses, after `BET_<ENV>_CORE` / `BET_<ENV>_RELAYER` overrides. */
function betEnvironment(name: EnvironmentName, env: Env): BetEnvironment {
  const base = defaults[name];
  const prefix = `BET_${name.toUpperCase()}`;
  return {
    ...base,
    core: addressSetting(`${prefix}_CORE`, env) ?? base.core,
    relayer: addressSetting(`${prefix}_RELAYER`, env) ?? base.relayer,
  };
}

/** The wallet credited as affiliate in every signed order: BET_AFFILIATE, else the service's PAY_TO. */
function affiliateAddress(env: Env): Address {
  return addressSetting("BET_AFFILIATE", env) ?? addressSetting("PAY_TO", env) ?? zeroAddress;
}

/** How long a quote's signature stays valid: BET_QUOTE_TTL_SECONDS, 300 by default (the SDK's deadline). */
function quoteLifetimeSeconds(env: Env): number {
  return integerSetting("BET_QUOTE_TTL_SECONDS", env, 300, 30, 3600);
}

function addressSetting(name: string, env: Env): Address | undefined {
  const value = env[name];
  if (!value) return undefined;
  if (!isAddress(value, { strict: false })) throw new Error(`${name} must be a 0x address`);
  return getAddress(value);
}

/** The bet family's settings: the affiliate, the quotes' lifetime and each environment's contracts. */
export const betSettings = defineSettings((env) => ({
  affiliate: affiliateAddress(env),
  quoteLifetimeSeconds: quoteLifetimeSeconds(env),
  environments: Object.fromEntries(environmentNames.map((name) => [name, betEnvironment(name, env)])) as Record<
    EnvironmentName,
    BetEnvironment
  >,
}));
