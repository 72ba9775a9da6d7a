import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { AzuroGame, Conditions } from "./_azuro.ts";
import { betSettings, environmentNames } from "./_environments.ts";
import { isOpen, Market, toGame, toMarket } from "./_markets.ts";

/** The spec's aliases onto Azuro's sport slugs; any other slug goes to Azuro as given. */
const sportAliases: Record<string, string> = {
  soccer: "football",
  nhl: "ice-hockey",
  hockey: "ice-hockey",
  ufc: "mma",
};

const Game = v.object({
  gameId: v.pipe(v.string(), v.description("Azuro game id")),
  title: v.string(),
  sport: v.object({ slug: v.string(), name: v.string() }),
  league: v.string(),
  country: v.string(),
  startsAt: v.pipe(v.string(), v.description("ISO 8601 UTC")),
  participants: v.array(v.string()),
  markets: v.array(Market),
});

export default defineEndpoint({
  name: "bet/odds",
  method: "GET",
  price: "$0.01",
  mcp: true,
  summary: "Upcoming or live games on the Azuro betting protocol with their open markets and decimal odds",
  description:
    "From Azuro's public API (market-manager). Games in start order, each with up to marketsPerGame markets that take bets now. " +
    "Pass a market's conditionId and an outcomeId to /v1/bet/quote. Sport aliases: soccer = football, nhl and hockey = ice-hockey, ufc = mma.",
  input: v.object({
    sport: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z0-9-]{2,40}$/, "not a sport slug"),
        v.description(
          "Sport slug: football, basketball, mma, ice-hockey, baseball, tennis, cricket, table-tennis, cs2 and more; aliases soccer, nhl, ufc",
        ),
      ),
    ),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(25), v.description("Games to return")),
      10,
    ),
    gameState: v.optional(
      v.pipe(v.picklist(["prematch", "live"]), v.description("Games not started yet, or in play")),
      "prematch",
    ),
    environment: v.optional(
      v.pipe(v.picklist(environmentNames), v.description("PolygonUSDT (USDT on chain 137) or GnosisXDAI")),
      "PolygonUSDT",
    ),
    marketsPerGame: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description("Markets per game")),
      8,
    ),
  }),
  output: v.object({
    source: v.pipe(v.string(), v.description("`azuro`")),
    environment: v.string(),
    chain: v.pipe(v.number(), v.integer(), v.description("EVM chain id of the environment")),
    betToken: v.pipe(v.string(), v.description("Symbol of the token bets are placed in")),
    betTokenAddress: v.string(),
    count: v.pipe(v.number(), v.integer()),
    games: v.array(Game),
  }),
  example: {
    input: { sport: "soccer", limit: 1, marketsPerGame: 1 },
    output: {
      source: "azuro",
      environment: "PolygonUSDT",
      chain: 137,
      betToken: "USDT",
      betTokenAddress: "0xc2132D05D31c914a87C6611C10748AEb04B58e8F",
      count: 1,
      games: [
        {
          gameId: "1006000000000084793028",
          title: "Tottenham Hotspur - Leeds United",
          sport: { slug: "football", name: "Football" },
          league: "Premier League",
          country: "England",
          startsAt: "2026-05-11T19:00:00.000Z",
          participants: ["Tottenham Hotspur", "Leeds United"],
          markets: [
            {
              conditionId: "300610060000000000847930280000000000002435620690",
              title: "Market 300610060000000000847930280000000000002435620690",
              kind: "legacy-29",
              outcomes: [
                { outcomeId: "29", title: "Outcome 29", odds: 1.81 },
                { outcomeId: "30", title: "Outcome 30", odds: 3.78 },
                { outcomeId: "31", title: "Outcome 31", odds: 4.43 },
              ],
            },
          ],
        },
      ],
    },
  },
  cacheTtl: 60,
  upstreams: ["azuro-api"],
  settings: betSettings,
  async handler({ input, upstream, settings }) {
    const env = settings.environments[input.environment];
    const api = upstream("azuro-api");
    const { games } = await api.json("/market-manager/games-by-filters", v.object({ games: v.array(AzuroGame) }), {
      query: {
        environment: env.name,
        gameState: input.gameState === "live" ? "Live" : "Prematch",
        sportSlug: input.sport ? (sportAliases[input.sport] ?? input.sport) : undefined,
        orderBy: "startsAt",
        orderDirection: "asc",
        page: 1,
        perPage: input.limit,
      },
    });
    const picked = games.slice(0, input.limit);
    const conditions =
      picked.length === 0
        ? []
        : (
            await api.json("/market-manager/conditions-by-game-ids", Conditions, {
              method: "POST",
              body: { gameIds: picked.map((g) => g.gameId), environment: env.name },
            })
          ).conditions;
    const marketsOf = (gameId: string) =>
      conditions
        .filter((c) => c.game?.gameId === gameId && isOpen(c, input.gameState))
        .slice(0, input.marketsPerGame)
        .map(toMarket);
    return {
      source: "azuro",
      environment: env.name,
      chain: env.chainId,
      betToken: env.betToken.symbol,
      betTokenAddress: env.betToken.address,
      count: picked.length,
      games: picked.map((g) => toGame(g, marketsOf(g.gameId))),
    };
  },
});
