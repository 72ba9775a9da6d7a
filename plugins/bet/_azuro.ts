import type { Upstream } from "../../core/endpoint.ts";
import { notFound, ServiceError, upstreamFailed } from "../../core/runtime/errors.ts";
import type { EnvironmentName } from "./_environments.ts";

/** Shapes of the Azuro REST API (toolkit `utils/feed/*` and `utils/bet/*`); only the fields we read. */
export interface AzuroGame {
  gameId: string;
  title: string;
  /** Unix seconds as a string. */
  startsAt: string;
  state: string;
  sport: { slug: string; name: string };
  league: { slug: string; name: string };
  country: { slug: string; name: string };
  participants: { name: string }[];
}

export interface AzuroOutcome {
  outcomeId: string;
  odds: string;
  title?: string | null;
}

export interface AzuroCondition {
  conditionId: string;
  state: string;
  title?: string | null;
  isPrematchEnabled?: boolean;
  isLiveEnabled?: boolean;
  hidden?: boolean;
  marketId?: string | null;
  marketVarietyId?: string | null;
  outcomes: AzuroOutcome[];
  game?: { gameId: string };
}

interface BetCalculation {
  response: { minBet?: number; maxBet: number; maxPayout: string };
}

interface GasInfo {
  relayerFeeAmount: string;
}

/** Current state and odds of one condition (`condition-batch`); 404 when Azuro does not know it. */
export async function conditionState(api: Upstream, conditionId: string): Promise<AzuroCondition> {
  const { conditions } = await api.json<{ conditions?: AzuroCondition[] }>("/market-manager/condition-batch", {
    method: "POST",
    body: { conditionIds: [conditionId] },
  });
  const condition = conditions?.find((c) => c.conditionId === conditionId);
  if (!condition) throw notFound(`Azuro has no condition ${conditionId}`);
  return condition;
}

/** The condition's outcome, refused unless the market still takes bets. */
export function liveOutcome(condition: AzuroCondition, outcomeId: string): AzuroOutcome {
  const outcome = condition.outcomes.find((o) => o.outcomeId === outcomeId);
  if (!outcome) throw notFound(`Condition ${condition.conditionId} has no outcome ${outcomeId}`);
  if (condition.state !== "Active") {
    throw new ServiceError(409, "market_not_live", `The market is ${condition.state}, no longer taking bets`, { conditionId: condition.conditionId, state: condition.state });
  }
  return outcome;
}

/** The protocol's limits for one selection, in human token units; `wallet` gives the bettor's own maxBet. */
export async function betLimits(api: Upstream, environment: EnvironmentName, selection: { conditionId: string; outcomeId: string }, wallet?: string) {
  const body = { environment, bets: [{ conditionId: selection.conditionId, outcomeId: Number(selection.outcomeId) }], ...(wallet ? { wallet } : {}) };
  const { response } = await api.json<BetCalculation>("/bet/calculation", { method: "POST", body });
  if (!response || typeof response.maxBet !== "number") throw upstreamFailed("azuro-api", "azuro-api answered no bet limits");
  return { minBet: response.minBet ?? 0, maxBet: response.maxBet, maxPayout: Number(response.maxPayout) };
}

/** The relayer fee in raw bet-token units (`/bet/gas-info`; the docs show it both as an object and as a one-item array). */
export async function relayerFee(api: Upstream, environment: EnvironmentName): Promise<string> {
  const info = await api.json<GasInfo | GasInfo[]>("/bet/gas-info", { query: { environment } });
  const fee = (Array.isArray(info) ? info[0] : info)?.relayerFeeAmount;
  if (typeof fee !== "string" || !/^\d+$/.test(fee)) throw upstreamFailed("azuro-api", "azuro-api answered no relayer fee");
  return fee;
}

/** Stake limits check shared by quote and submit: a clear 422 naming the limits. */
export function checkStake(amount: number, limits: { minBet: number; maxBet: number }) {
  if (amount < limits.minBet || amount > limits.maxBet) {
    throw new ServiceError(422, "stake_out_of_limits", `The stake ${amount} is outside the protocol's limits ${limits.minBet} to ${limits.maxBet}`, { amount, ...limits });
  }
}
