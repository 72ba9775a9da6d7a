import { getAddress, isAddress, type Address } from "viem";
import { defineSettings, type Env, type SettingsOf } from "../../core/endpoint.ts";
import { integerSetting } from "../../core/runtime/settings.ts";

/**
 * SWAP_FEE_RECIPIENT takes the integrator fee; unset, the service's PAY_TO does; with neither, no integrator
 * fee is requested at all (better than sending fees to an address nobody controls).
 */
function feeRecipient(env: Env): Address | undefined {
  return optionalAddress("SWAP_FEE_RECIPIENT", env) ?? optionalAddress("PAY_TO", env);
}

/** How long the race waits for aggregators (SWAP_RACE_DEADLINE_MS, default 6000, 200 to 20000: under the handler timeout). */
function raceDeadlineMs(env: Env): number {
  return integerSetting("SWAP_RACE_DEADLINE_MS", env, 6000, 200, 20_000);
}

/** How long a quote is offered for (SWAP_QUOTE_TTL_SECONDS, default 30: KyberSwap routes expire in about 30 s). */
function quoteTtlSeconds(env: Env): number {
  return integerSetting("SWAP_QUOTE_TTL_SECONDS", env, 30, 5, 600);
}

/** Free widget quotes per visitor IP per hour (SWAP_WIDGET_QUOTES_PER_HOUR, default 30). */
function widgetQuotesPerHour(env: Env): number {
  return integerSetting("SWAP_WIDGET_QUOTES_PER_HOUR", env, 30, 1, 10_000);
}

/** The integrator name LI.FI credits fees to (SWAP_LIFI_INTEGRATOR); fees only flow once it is registered at portal.li.fi. */
function lifiIntegrator(env: Env): string {
  return env.SWAP_LIFI_INTEGRATOR || "x402-agent-services";
}

/** The fee wallet registered for the LI.FI integrator name at portal.li.fi (SWAP_LIFI_FEE_WALLET); unset, LI.FI takes no fee. */
function lifiFeeWallet(env: Env): Address | undefined {
  return optionalAddress("SWAP_LIFI_FEE_WALLET", env);
}

/** Across's 2-byte integrator id, 0x and four hex digits (SWAP_ACROSS_INTEGRATOR_ID), asked for in production. */
function acrossIntegratorId(env: Env): string | undefined {
  const value = env.SWAP_ACROSS_INTEGRATOR_ID;
  if (!value) return undefined;
  if (!/^0x[0-9a-fA-F]{4}$/.test(value)) throw new Error("SWAP_ACROSS_INTEGRATOR_ID must be 0x and four hex digits");
  return value.toLowerCase();
}

/** deBridge's referral code (SWAP_DEBRIDGE_REFERRAL_CODE), which deBridge asks for before affiliate fees are paid. */
function debridgeReferralCode(env: Env): number | undefined {
  const value = env.SWAP_DEBRIDGE_REFERRAL_CODE;
  if (!value) return undefined;
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new Error("SWAP_DEBRIDGE_REFERRAL_CODE must be a positive integer");
  return Number(value);
}

function optionalAddress(name: string, env: Env): Address | undefined {
  const value = env[name];
  if (!value) return undefined;
  if (!isAddress(value, { strict: false })) throw new Error(`${name} must be a 0x address`);
  return getAddress(value);
}

/**
 * Token accounts owned by the service that may receive Jupiter platform fees, as `mint:account` pairs
 * (SWAP_SOLANA_FEE_ACCOUNTS). Jupiter needs one whose mint is the input or output mint; without it no fee is taken.
 */
function solanaFeeAccounts(env: Env): Map<string, string> {
  const pairs = (env.SWAP_SOLANA_FEE_ACCOUNTS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const accounts = new Map<string, string>();
  for (const pair of pairs) {
    const [mint, account] = pair.split(":");
    if (!mint || !account) throw new Error("SWAP_SOLANA_FEE_ACCOUNTS must be mint:account pairs separated by commas");
    accounts.set(mint, account);
  }
  return accounts;
}

/** The swap family's settings. */
export const swapSettings = defineSettings((env) => ({
  feeRecipient: feeRecipient(env),
  raceDeadlineMs: raceDeadlineMs(env),
  quoteTtlSeconds: quoteTtlSeconds(env),
  widgetQuotesPerHour: widgetQuotesPerHour(env),
  lifiIntegrator: lifiIntegrator(env),
  lifiFeeWallet: lifiFeeWallet(env),
  acrossIntegratorId: acrossIntegratorId(env),
  debridgeReferralCode: debridgeReferralCode(env),
  solanaFeeAccounts: solanaFeeAccounts(env),
}));

export type SwapSettings = SettingsOf<typeof swapSettings>;
