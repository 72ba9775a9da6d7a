import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { isoDate } from "./_pr-inputs.ts";

const leagues = {
  nfl: "football/nfl",
  "college-football": "football/college-football",
  nba: "basketball/nba",
  wnba: "basketball/wnba",
  "college-basketball": "basketball/mens-college-basketball",
  mlb: "baseball/mlb",
  nhl: "hockey/nhl",
  mls: "soccer/usa.1",
  "premier-league": "soccer/eng.1",
  "la-liga": "soccer/esp.1",
  bundesliga: "soccer/ger.1",
  "serie-a": "soccer/ita.1",
  "ligue-1": "soccer/fra.1",
  "champions-league": "soccer/uefa.champions",
} as const;
type League = keyof typeof leagues;

const o = v.optional;
/** What the code reads of ESPN's scoreboard: `events` always comes, empty on a day without games. */
const Competitor = v.object({
  homeAway: v.string(),
  winner: o(v.boolean()),
  score: o(v.string()),
  team: v.object({ displayName: v.string(), abbreviation: o(v.string()) }),
});
type Competitor = v.InferOutput<typeof Competitor>;
const Event = v.object({
  id: v.string(),
  date: v.string(),
  name: v.string(),
  shortName: v.string(),
  competitions: v.array(
    v.object({ venue: o(v.object({ fullName: o(v.string()) })), competitors: v.array(Competitor) }),
  ),
  status: v.object({
    type: v.object({
      state: v.picklist(["pre", "in", "post"]),
      completed: v.boolean(),
      description: v.string(),
      shortDetail: o(v.string()),
    }),
  }),
  links: o(v.array(v.object({ href: v.string(), rel: o(v.array(v.string())) }))),
});
const Scoreboard = v.object({ events: v.array(Event) });

const Side = v.object({
  team: v.string(),
  abbreviation: v.nullable(v.string()),
  score: v.nullable(v.pipe(v.string(), v.description("As ESPN gives it"))),
  winner: v.nullable(v.boolean()),
});

export default defineEndpoint({
  name: "sports",
  method: "GET",
  price: "$0.01",
  summary:
    "Scoreboard of a league for a day: games, teams, scores, status, start time, venue (NFL, NBA, MLB, NHL, major football leagues)",
  description:
    "From ESPN's public scoreboard feed (unofficial and undocumented: it may change without notice). Without `date`, ESPN's current scoreboard (today or the current week). Start times are UTC. Scores are strings as ESPN gives them; `status.state` is pre, in or post.",
  input: v.object({
    league: v.pipe(v.picklist(Object.keys(leagues) as League[]), v.description("League")),
    date: v.optional(isoDate("Day of the games, YYYY-MM-DD (US Eastern days for US leagues, per ESPN)")),
  }),
  output: v.object({
    league: v.string(),
    date: v.nullable(v.string()),
    count: v.number(),
    games: v.array(
      v.object({
        id: v.string(),
        name: v.string(),
        shortName: v.string(),
        start: v.pipe(v.string(), v.description("UTC, ISO 8601")),
        status: v.object({
          state: v.picklist(["pre", "in", "post"]),
          completed: v.boolean(),
          description: v.string(),
          detail: v.nullable(v.string()),
        }),
        venue: v.nullable(v.string()),
        home: v.nullable(Side),
        away: v.nullable(Side),
        url: v.nullable(v.string()),
      }),
    ),
  }),
  example: {
    input: { league: "nfl", date: "2025-02-09" },
    output: {
      league: "nfl",
      date: "2025-02-09",
      count: 1,
      games: [
        {
          id: "401671889",
          name: "Kansas City Chiefs at Philadelphia Eagles",
          shortName: "KC VS PHI",
          start: "2025-02-09T23:30Z",
          status: { state: "post", completed: true, description: "Final", detail: "Final" },
          venue: "Caesars Superdome",
          home: { team: "Philadelphia Eagles", abbreviation: "PHI", score: "40", winner: true },
          away: { team: "Kansas City Chiefs", abbreviation: "KC", score: "22", winner: false },
          url: "https://www.espn.com/nfl/game/_/gameId/401671889/chiefs-eagles",
        },
      ],
    },
  },
  cacheTtl: 60,
  upstreams: ["espn"],
  async handler({ input, upstream }) {
    const board = await upstream("espn").json(`/${leagues[input.league]}/scoreboard`, Scoreboard, {
      query: { dates: input.date?.replaceAll("-", "") },
    });
    const side = (c: Competitor | undefined) =>
      c
        ? {
            team: c.team.displayName,
            abbreviation: c.team.abbreviation ?? null,
            score: c.score ?? null,
            winner: c.winner ?? null,
          }
        : null;
    const games = board.events.map((e) => {
      const [competition] = e.competitions;
      return {
        id: e.id,
        name: e.name,
        shortName: e.shortName,
        start: e.date,
        status: {
          state: e.status.type.state,
          completed: e.status.type.completed,
          description: e.status.type.description,
          detail: e.status.type.shortDetail ?? null,
        },
        venue: competition?.venue?.fullName ?? null,
        home: side(competition?.competitors.find((c) => c.homeAway === "home")),
        away: side(competition?.competitors.find((c) => c.homeAway === "away")),
        url: e.links?.find((l) => l.rel?.includes("summary"))?.href ?? e.links?.[0]?.href ?? null,
      };
    });
    return { league: input.league, date: input.date ?? null, count: games.length, games };
  },
});
