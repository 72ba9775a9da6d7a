import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { chainInfo, type ChainSlug } from "../_shared/chains.ts";
import { flag, fraction, goplus } from "../_shared/goplus.ts";
import { checksummed } from "../_shared/onchain-inputs.ts";

/**
 * What the code reads of a token_security report: the holder and DEX lists; every other field (flags, taxes, parties) is
 * read as unknown by flag() and fraction().
 */
const Report = v.looseObject({
  holders: v.optional(
    v.array(
      v.object({
        address: v.string(),
        percent: v.string(),
        is_contract: v.number(),
        is_locked: v.number(),
        tag: v.optional(v.string()),
      }),
    ),
  ),
  dex: v.optional(v.array(v.object({ name: v.string(), liquidity: v.string(), pair: v.string() }))),
});
/** Reports keyed by the lower-case contract address; none for a token GoPlus does not know. */
const Reports = v.nullable(v.record(v.string(), Report));

export const checks = {
  honeypot: "is_honeypot",
  cannotBuy: "cannot_buy",
  cannotSellAll: "cannot_sell_all",
  mintable: "is_mintable",
  proxy: "is_proxy",
  openSource: "is_open_source",
  hiddenOwner: "hidden_owner",
  canTakeBackOwnership: "can_take_back_ownership",
  ownerCanChangeBalance: "owner_change_balance",
  selfDestruct: "selfdestruct",
  externalCall: "external_call",
  transferPausable: "transfer_pausable",
  tradingCooldown: "trading_cooldown",
  blacklist: "is_blacklisted",
  whitelist: "is_whitelisted",
  antiWhale: "is_anti_whale",
  taxModifiable: "slippage_modifiable",
  personalTaxModifiable: "personal_slippage_modifiable",
  inDex: "is_in_dex",
} as const;
// A risk when true; openSource and inDex are reassuring when true, so they are not risks.
export const risky = Object.keys(checks).filter(
  (k) => k !== "openSource" && k !== "inDex" && k !== "whitelist",
) as (keyof typeof checks)[];

/** GoPlus's token_security report in our shape (token-security's answer; rug-check reads the same). A token GoPlus has no report for is a 404. */
export async function readTokenSecurity(api: Upstream, chain: ChainSlug, address: string) {
  const { id } = chainInfo(chain);
  const result = await goplus(api, `/v1/token_security/${id}`, Reports, { contract_addresses: address.toLowerCase() });
  const report = result?.[address.toLowerCase()];
  if (!report || Object.keys(report).length === 0) throw notFound(`GoPlus has no report for ${address} on ${chain}`);
  const flags = Object.fromEntries(
    Object.entries(checks).map(([name, field]) => [name, flag(report[field])]),
  ) as Record<keyof typeof checks, boolean | null>;
  const party = (whoField: string, percentField: string) => {
    const who = report[whoField];
    return typeof who === "string" && /^0x[0-9a-fA-F]{40}$/.test(who)
      ? { address: checksummed(who), share: fraction(report[percentField]) }
      : null;
  };
  return {
    chain,
    address,
    name: typeof report.token_name === "string" ? report.token_name : null,
    symbol: typeof report.token_symbol === "string" ? report.token_symbol : null,
    checks: flags,
    risks: risky.filter((k) => flags[k] === true),
    buyTax: fraction(report.buy_tax),
    sellTax: fraction(report.sell_tax),
    transferTax: fraction(report.transfer_tax),
    holderCount: fraction(report.holder_count),
    creator: party("creator_address", "creator_percent"),
    owner: party("owner_address", "owner_percent"),
    topHolders: (report.holders ?? []).map((h) => ({
      address: h.address,
      share: Number(h.percent),
      isContract: h.is_contract === 1,
      isLocked: h.is_locked === 1,
      tag: h.tag ? h.tag : null,
    })),
    dexes: (report.dex ?? []).map((d) => ({ name: d.name, pair: d.pair, liquidityUsd: fraction(d.liquidity) })),
    source: `https://gopluslabs.io/token-security/${id}/${address}`,
  };
}
