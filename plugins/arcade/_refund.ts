import { randomBytes } from "node:crypto";
import type { CreditIssuer, Store } from "../../core/endpoint.ts";
import { toAtomicAmount } from "../../core/shared.ts";
import { once } from "../_shared/once.ts";
import { listed } from "./_records.ts";

interface Refund {
  playId: string;
  code: string;
  amountUsd: string;
}

const keepMs = 365 * 86_400_000;
const refundKey = (playId: string) => `arcade:refund:${playId}`;
const refundsKey = (playerId: string) => `arcade:refunds:${playerId}`;

/** "0.25" -> 250000 (USDC has 6 decimals). */
export const usdToAtomic = (usd: string) => BigInt(toAtomicAmount(`$${usd}`, 6));

/**
 * Credits a void play's fee back, once per play across instances and runs: the code is fixed by the first
 * claim and funded behind a marker. Only its player reads it (POST /v1/arcade/promo-code, with the secret).
 */
export async function refundOnce(
  store: Store,
  credits: CreditIssuer,
  play: { playId: string; playerId: string; feeUsd: string },
): Promise<string | null> {
  const amount = usdToAtomic(play.feeUsd);
  if (amount === 0n) return null;
  await store.claim(
    refundKey(play.playId),
    {
      playId: play.playId,
      code: `cr_${randomBytes(18).toString("base64url")}`,
      amountUsd: play.feeUsd,
    } satisfies Refund,
    keepMs,
  );
  const refund = (await store.get<Refund>(refundKey(play.playId)))!;
  await once(store, `${refundKey(play.playId)}:funded`, keepMs, () => credits.fund(refund.code, `$${play.feeUsd}`));
  await listed(store, refundsKey(play.playerId), play.playerId, play.playId, true);
  return refund.amountUsd;
}

export async function refundsOf(store: Store, playerId: string): Promise<Refund[]> {
  const ids = (await store.get<string[]>(refundsKey(playerId))) ?? [];
  const refunds = await Promise.all(ids.map((id) => store.get<Refund>(refundKey(id))));
  return refunds.filter((r): r is Refund => r !== undefined);
}

export const refundText = (refundUsd: string | null) =>
  refundUsd
    ? `$${refundUsd} credited back: read the credit code with POST /v1/arcade/promo-code (your alias and secret)`
    : "a free play: nothing was charged";
