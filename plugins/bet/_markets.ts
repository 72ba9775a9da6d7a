import * as v from "valibot";
import type { AzuroCondition, AzuroGame, AzuroOutcome } from "./_azuro.ts";
import { isOutcomeOpen } from "./_azuro.ts";

export const Outcome = v.object({
  outcomeId: v.pipe(v.string(), v.description("Pass to /v1/bet/quote with the conditionId")),
  title: v.pipe(
    v.string(),
    v.description(
      "The selection's name from Azuro, or `Outcome <id>` when Azuro names it only in its dictionaries package",
    ),
  ),
  odds: v.pipe(v.number(), v.description("Decimal odds")),
});

export const Market = v.object({
  conditionId: v.pipe(v.string(), v.description("Pass to /v1/bet/quote")),
  title: v.pipe(
    v.string(),
    v.description(
      "The market's name from Azuro, or `Market <conditionId>` for a legacy condition Azuro names only in its dictionaries package",
    ),
  ),
  kind: v.pipe(
    v.string(),
    v.description("`market-<marketId>[-<varietyId>]` for Azuro's modern markets, `legacy-<first outcomeId>` otherwise"),
  ),
  outcomes: v.array(Outcome),
});

const named = (title: string | null | undefined): string | undefined => (title && title !== "null" ? title : undefined);

export const marketTitle = (c: Pick<AzuroCondition, "conditionId" | "title">) =>
  named(c.title) ?? `Market ${c.conditionId}`;
export const outcomeTitle = (o: AzuroOutcome) => named(o.title) ?? `Outcome ${o.outcomeId}`;

function marketKind(c: AzuroCondition): string {
  if (c.marketId != null)
    return c.marketVarietyId != null ? `market-${c.marketId}-${c.marketVarietyId}` : `market-${c.marketId}`;
  return `legacy-${c.outcomes[0]?.outcomeId ?? "none"}`;
}

/** Open to bets in this game state: Active, shown, and enabled for prematch or live betting. */
export function isOpen(c: AzuroCondition, gameState: "prematch" | "live"): boolean {
  if (c.state !== "Active" || c.hidden === true || !c.outcomes.some(isOutcomeOpen)) return false;
  return gameState === "live" ? c.isLiveEnabled !== false : c.isPrematchEnabled !== false;
}

export function toMarket(c: AzuroCondition): v.InferOutput<typeof Market> {
  return {
    conditionId: c.conditionId,
    title: marketTitle(c),
    kind: marketKind(c),
    outcomes: c.outcomes
      .filter(isOutcomeOpen)
      .map((o) => ({ outcomeId: o.outcomeId, title: outcomeTitle(o), odds: Number(o.odds) })),
  };
}

export function toGame(game: AzuroGame, markets: v.InferOutput<typeof Market>[]) {
  return {
    gameId: game.gameId,
    title: game.title,
    sport: { slug: game.sport.slug, name: game.sport.name },
    league: game.league.name,
    country: game.country.name,
    startsAt: new Date(Number(game.startsAt) * 1000).toISOString(),
    participants: game.participants.map((p) => p.name),
    markets,
  };
}
