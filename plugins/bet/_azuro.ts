import { Decimal } from "decimal.js";
import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { notFound, ServiceError } from "../../core/runtime/errors.ts";
import type { EnvironmentName } from "./_environments.ts";

const o = v.optional;
/** Shapes of the Azuro REST API (toolkit `utils/feed/*` and `utils/bet/*`); only the fields we read. */
export const AzuroGame = v.object({
  gameId: v.string(),
  title: v.string(),
  /** Unix seconds as a string. */
  startsAt: v.pipe(v.string(), v.regex(/^\d{1,12}$/, "not unix seconds")),
  state: v.string(),
  sport: v.object({ slug: v.string(), name: v.string() }),
  league: v.object({ name: v.string() }),
  country: v.object({ name: v.string() }),
  participants: v.array(v.object({ name: v.string() })),
});
export type AzuroGame = v.InferOutput<typeof AzuroGame>;

const AzuroOutcome = v.object({
  outcomeId: v.string(),
  odds: v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/, "not decimal odds")),
  title: v.nullish(v.string()),
  /** An outcome can be stopped or hidden on its own while its condition stays Active. */
  state: o(v.string()),
  hidden: o(v.boolean()),
});
export type AzuroOutcome = v.InferOutput<typeof AzuroOutcome>;

export const AzuroCondition = v.object({
  conditionId: v.string(),
  state: v.string(),
  title: v.nullish(v.string()),
  isPrematchEnabled: o(v.boolean()),
  isLiveEnabled: o(v.boolean()),
  hidden: o(v.boolean()),
  marketId: v.nullish(v.string()),
  marketVarietyId: v.nullish(v.string()),
  outcomes: v.array(AzuroOutcome),
  game: o(v.object({ gameId: v.string() })),
});
export type AzuroCondition = v.InferOutput<typeof AzuroCondition>;
/** `conditions` always comes (empty when none match). */
export const Conditions = v.object({ conditions: v.array(AzuroCondition) });

const BetCalculation = v.object({
  response: v.object({
    minBet: o(v.number()),
    maxBet: v.number(),
    maxPayout: v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/, "not a decimal")),
  }),
});

/** The docs show the fee both as an object and as a one-item array; raw bet-token units. */
const GasInfo = v.object({ relayerFeeAmount: v.pipe(v.string(), v.regex(/^\d+$/, "not raw token units")) });
const GasInfoAnswer = v.union([v.pipe(v.array(GasInfo), v.minLength(1)), GasInfo]);

/** Current state and odds of one condition in one environment (`condition-batch`); 404 when Azuro does not know it. */
export async function conditionState(
  api: Upstream,
  environment: EnvironmentName,
  conditionId: string,
): Promise<AzuroCondition> {
  const { conditions } = await api.json("/market-manager/condition-batch", Conditions, {
    method: "POST",
    body: { conditionIds: [conditionId], environment },
  });
  const condition = conditions.find((c) => c.conditionId === conditionId);
  if (!condition) throw notFound(`Azuro has no condition ${conditionId}`);
  return condition;
}

/** An outcome open to bets: shown, and Active when Azuro gives it a state of its own. */
export const isOutcomeOpen = (outcome: AzuroOutcome) =>
  outcome.hidden !== true && (outcome.state === undefined || outcome.state === "Active");

/** The condition's outcome, refused unless the market and the outcome itself still take bets. */
export function liveOutcome(condition: AzuroCondition, outcomeId: string): AzuroOutcome {
  const outcome = condition.outcomes.find((o) => o.outcomeId === outcomeId);
  if (!outcome) throw notFound(`Condition ${condition.conditionId} has no outcome ${outcomeId}`);
  if (condition.state !== "Active") {
    throw new ServiceError(409, "market_not_live", `The market is ${condition.state}, no longer taking bets`, {
      conditionId: condition.conditionId,
      state: condition.state,
    });
  }
  if (!isOutcomeOpen(outcome)) {
    const state = outcome.hidden === true ? "hidden" : outcome.state;
    throw new ServiceError(409, "market_not_live", `The outcome is ${state}, no longer taking bets`, {
      conditionId: condition.conditionId,
      outcomeId,
      state,
    });
  }
  return outcome;
}

/** What the stake wins at these odds, refused above the protocol's maxPayout (the odds may have risen since the quote). */
export function checkPayout(amount: string, odds: string, limits: { maxPayout: number }): number {
  const potentialPayout = new Decimal(amount).mul(odds).toNumber();
  if (potentialPayout > limits.maxPayout) {
    throw new ServiceError(
      422,
      "payout_over_limit",
      `The potential payout ${potentialPayout} is above the protocol's ${limits.maxPayout}`,
      { potentialPayout, maxPayout: limits.maxPayout },
    );
  }
  return potentialPayout;
}

/** The protocol's limits for one selection, in human token units; `wallet` gives the bettor's own maxBet. */
export async function betLimits(
  api: Upstream,
  environment: EnvironmentName,
  selection: { conditionId: string; outcomeId: string },
  wallet?: string,
) {
  const body = {
    environment,
    bets: [{ conditionId: selection.conditionId, outcomeId: Number(selection.outcomeId) }],
    ...(wallet ? { wallet } : {}),
  };
  const { response } = await api.json("/bet/calculation", BetCalculation, { method: "POST", body });
  return { minBet: response.minBet ?? 0, maxBet: response.maxBet, maxPayout: Number(response.maxPayout) };
}

/** The relayer fee in raw bet-token units (`/bet/gas-info`; the docs show it both as an object and as a one-item array). */
export async function relayerFee(api: Upstream, environment: EnvironmentName): Promise<string> {
  const info = await api.json("/bet/gas-info", GasInfoAnswer, { query: { environment } });
  return (Array.isArray(info) ? info[0] : info).relayerFeeAmount;
}

/** Stake limits check shared by quote and submit: a clear 422 naming the limits. */
export function checkStake(amount: number, limits: { minBet: number; maxBet: number }) {
  if (amount < limits.minBet || amount > limits.maxBet) {
    throw new ServiceError(
      422,
      "stake_out_of_limits",
      `The stake ${amount} is outside the protocol's limits ${limits.minBet} to ${limits.maxBet}`,
      { amount, ...limits },
    );
  }
}
