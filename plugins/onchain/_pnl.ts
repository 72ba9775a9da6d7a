import { Decimal } from "decimal.js";
import * as v from "valibot";
import { getAddress } from "viem";
import type { Upstream } from "../../core/endpoint.ts";
import { blockscoutSlugs, readTokenTransfers, type BlockscoutTokenTransfer } from "./_blockscout.ts";
import { chainInfo, type ChainSlug } from "../_shared/chains.ts";
import { currentPrices, historicalPrices, type PriceAt } from "./_prices.ts";

/** Chains with both a Blockscout index and DefiLlama prices: PnL needs both. */
export const pricedSlugs = blockscoutSlugs.filter((slug) => chainInfo(slug).llama);

export const pricedChainField = v.optional(
  v.pipe(
    v.picklist(pricedSlugs, `must be one of: ${pricedSlugs.join(", ")}`),
    v.description(`Network with a Blockscout index and prices: ${pricedSlugs.join(", ")}`),
  ),
  "ethereum",
);

export const llamaPrefixOf = (slug: ChainSlug) => chainInfo(slug).llama!;

/** Enough digits for an 18-decimal amount of a token with a trillion supply. */
export const D = Decimal.clone({ precision: 60 });
type Dec = InstanceType<typeof D>;

/** One side of a transfer as the wallet saw it, in whole tokens. */
export interface Leg {
  hash: string;
  time: Date;
  token: string;
  symbol: string | null;
  name: string | null;
  amount: Dec;
  direction: "in" | "out";
}

/** The wallet's legs, oldest first; self-transfers and tokens without decimals are left out. */
export function legsOf(transfers: BlockscoutTokenTransfer[], wallet: string): Leg[] {
  const me = wallet.toLowerCase();
  const legs: Leg[] = [];
  for (const t of [...transfers].reverse()) {
    const from = t.from.hash.toLowerCase();
    const to = t.to.hash.toLowerCase();
    const decimals = t.total?.decimals ?? t.token.decimals;
    const token = t.token.address_hash ?? t.token.address;
    if (from === to || decimals === null || !t.total || !token) continue;
    if (from !== me && to !== me) continue;
    const amount = new D(t.total.value).div(new D(10).pow(Number(decimals)));
    legs.push({
      hash: t.transaction_hash,
      time: new Date(t.timestamp),
      token: getAddress(token.toLowerCase()),
      symbol: t.token.symbol,
      name: t.token.name,
      amount,
      direction: from === me ? "out" : "in",
    });
  }
  return legs;
}

export const unix = (time: Date) => Math.floor(time.getTime() / 1000);
export const usd = (x: Dec) => x.toDecimalPlaces(2).toNumber();

interface Lot {
  amount: Dec;
  unitCost: number | null;
}

export interface TokenPnl {
  token: string;
  symbol: string | null;
  name: string | null;
  transfersIn: number;
  transfersOut: number;
  received: string;
  sent: string;
  held: string;
  costBasisUsd: number;
  realizedUsd: number;
  unrealizedUsd: number;
  totalUsd: number;
  priceUsd: number | null;
  complete: boolean;
  gaps: string[];
}

/** FIFO cost basis per token: each receipt is a lot at its USD value then; each send sells the oldest lots first. */
export function fifoPnl(
  legs: Leg[],
  coinOf: (token: string) => string,
  priceAt: PriceAt,
  priceNow: (token: string) => number | null,
): TokenPnl[] {
  const byToken = new Map<string, Leg[]>();
  for (const leg of legs) byToken.set(leg.token, [...(byToken.get(leg.token) ?? []), leg]);
  return [...byToken].map(([token, own]) => {
    const lots: Lot[] = [];
    let realized = new D(0);
    let unmatched = new D(0);
    let unpriced = 0;
    for (const leg of own) {
      const price = priceAt(coinOf(token), unix(leg.time));
      if (price === null) unpriced++;
      if (leg.direction === "in") {
        lots.push({ amount: leg.amount, unitCost: price });
        continue;
      }
      let left = leg.amount;
      while (left.gt(0) && lots.length) {
        const lot = lots[0];
        const used = D.min(left, lot.amount);
        if (price !== null && lot.unitCost !== null)
          realized = realized.plus(used.times(new D(price).minus(lot.unitCost)));
        lot.amount = lot.amount.minus(used);
        left = left.minus(used);
        if (lot.amount.lte(0)) lots.shift();
      }
      unmatched = unmatched.plus(left);
    }
    const now = priceNow(token);
    const held = lots.reduce((sum, lot) => sum.plus(lot.amount), new D(0));
    const costed = lots.filter((lot) => lot.unitCost !== null);
    const cost = costed.reduce((sum, lot) => sum.plus(lot.amount.times(lot.unitCost!)), new D(0));
    const unrealized =
      now === null
        ? new D(0)
        : costed.reduce((sum, lot) => sum.plus(lot.amount.times(new D(now).minus(lot.unitCost!))), new D(0));
    const gaps = [
      ...(unmatched.gt(0)
        ? [
            `sent ${unmatched.toFixed()} more than received in the transfers read (bought earlier or bridged in): no cost basis for it`,
          ]
        : []),
      ...(unpriced ? [`${unpriced} transfer(s) without a DefiLlama price at the time: left out of PnL`] : []),
      ...(now === null && held.gt(0) ? ["no current price: unrealized PnL not counted"] : []),
    ];
    const count = (direction: Leg["direction"]) => own.filter((l) => l.direction === direction);
    const total = (direction: Leg["direction"]) =>
      count(direction)
        .reduce((sum, l) => sum.plus(l.amount), new D(0))
        .toFixed();
    return {
      token,
      symbol: own[0].symbol,
      name: own[0].name,
      transfersIn: count("in").length,
      transfersOut: count("out").length,
      received: total("in"),
      sent: total("out"),
      held: held.toFixed(),
      costBasisUsd: usd(cost),
      realizedUsd: usd(realized),
      unrealizedUsd: usd(unrealized),
      totalUsd: usd(realized.plus(unrealized)),
      priceUsd: now,
      complete: gaps.length === 0,
      gaps,
    };
  });
}

export interface WalletPnl {
  tokens: TokenPnl[];
  transfersRead: number;
  from: string | null;
  to: string | null;
  realizedUsd: number;
  unrealizedUsd: number;
  totalUsd: number;
  winRate: number | null;
}

/** Reads a wallet's recent ERC-20 transfers and prices them: one Blockscout walk, one historical and one current DefiLlama call. */
export async function readWalletPnl(
  blockscout: Upstream,
  llama: Upstream,
  llamaPrefix: string,
  wallet: string,
  transfers: number,
): Promise<WalletPnl> {
  const read = await readTokenTransfers(blockscout, wallet, transfers);
  return priceWalletPnl(llama, llamaPrefix, legsOf(read, wallet), read.length);
}

export async function priceWalletPnl(
  llama: Upstream,
  llamaPrefix: string,
  legs: Leg[],
  transfersRead: number,
): Promise<WalletPnl> {
  const coinOf = (token: string) => `${llamaPrefix}:${token.toLowerCase()}`;
  const wanted = new Map<string, number[]>();
  for (const leg of legs) wanted.set(coinOf(leg.token), [...(wanted.get(coinOf(leg.token)) ?? []), unix(leg.time)]);
  const [priceAt, now] = await Promise.all([historicalPrices(llama, wanted), currentPrices(llama, [...wanted.keys()])]);
  const tokens = fifoPnl(legs, coinOf, priceAt, (token) => now.get(coinOf(token))?.price ?? null).sort(
    (a, b) => b.totalUsd - a.totalUsd,
  );
  const sum = (pick: (t: TokenPnl) => number) => tokens.reduce((s, t) => s.plus(pick(t)), new D(0));
  const scored = tokens.filter((t) => t.totalUsd !== 0);
  return {
    tokens,
    transfersRead,
    from: legs[0]?.time.toISOString() ?? null,
    to: legs.at(-1)?.time.toISOString() ?? null,
    realizedUsd: usd(sum((t) => t.realizedUsd)),
    unrealizedUsd: usd(sum((t) => t.unrealizedUsd)),
    totalUsd: usd(sum((t) => t.totalUsd)),
    winRate: scored.length
      ? Math.round((scored.filter((t) => t.totalUsd > 0).length / scored.length) * 1000) / 1000
      : null,
  };
}
