import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { limit } from "./_pr-inputs.ts";

/** What the code reads of one item of CheapShark's `GET /games?title=` answer. */
const CheapSharkGame = v.object({
  gameID: v.string(),
  steamAppID: v.nullable(v.string()),
  cheapest: v.string(),
  cheapestDealID: v.string(),
  external: v.string(),
  thumb: v.string(),
});

export default defineEndpoint({
  name: "games",
  method: "GET",
  price: "$0.005",
  summary:
    "Look up PC games by title: the lowest current price across stores (USD), a link to that deal, the Steam app id",
  description:
    "From CheapShark (keyless), which tracks prices at Steam, GOG, Humble, Fanatical, Green Man Gaming and about 25 other stores. Matches are by title, as CheapShark orders them; `exact` asks for the exact title only. Prices are US dollars as decimal strings. No match is an empty list. Deal links go through CheapShark's redirect, as its terms ask.",
  input: v.object({
    q: v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.description("Game title or part of it, e.g. elden ring")),
    exact: v.optional(v.pipe(v.boolean(), v.description("Only games with exactly this title")), false),
    limit: limit(60, 10, "games"),
  }),
  output: v.object({
    count: v.number(),
    games: v.array(
      v.object({
        id: v.pipe(v.string(), v.description("CheapShark game id")),
        title: v.string(),
        steamAppId: v.nullable(v.string()),
        cheapestPrice: v.pipe(v.string(), v.description("Lowest current price across the stores, USD")),
        currency: v.literal("USD"),
        dealUrl: v.pipe(v.string(), v.description("The cheapest deal, through CheapShark's redirect")),
        steamUrl: v.nullable(v.string()),
        thumbnail: v.nullable(v.string()),
      }),
    ),
  }),
  example: {
    input: { q: "elden ring", limit: 2 },
    output: {
      count: 2,
      games: [
        {
          id: "236717",
          title: "ELDEN RING",
          steamAppId: "1245620",
          cheapestPrice: "49.16",
          currency: "USD",
          dealUrl: "https://www.cheapshark.com/redirect?dealID=0yH%2B27fnkwwPMEtLKiv52IGhamBesRW%2F9Ictx3%2B%2B2t0%3D",
          steamUrl: "https://store.steampowered.com/app/1245620/",
          thumbnail:
            "https://shared.akamai.steamstatic.com/store_item_assets/steam/apps/1245620/capsule_sm_120.jpg?t=1726158298",
        },
        {
          id: "240580",
          title: "Elden Ring (XBOX)",
          steamAppId: null,
          cheapestPrice: "59.99",
          currency: "USD",
          dealUrl: "https://www.cheapshark.com/redirect?dealID=JeekR4LAXQWj8VZRl%2F5iX4ejLvCodE%2BmY8QKDcoJ94o%3D",
          steamUrl: null,
          thumbnail:
            "https://images.greenmangaming.com/c9ac0f31c1074ec2a621eb00fb54fa4a/8fdcca7bfd73453091307d6cd3a168e3.jpg",
        },
      ],
    },
  },
  cacheTtl: 6 * 3600,
  upstreams: ["cheapshark"],
  async handler({ input, upstream }) {
    const found = await upstream("cheapshark").json("/games", v.array(CheapSharkGame), {
      query: { title: input.q, limit: input.limit, exact: input.exact ? 1 : 0 },
    });
    const games = found.slice(0, input.limit).map((g) => ({
      id: g.gameID,
      title: g.external,
      steamAppId: g.steamAppID || null,
      cheapestPrice: g.cheapest,
      currency: "USD" as const,
      // The deal id comes URL-encoded already.
      dealUrl: `https://www.cheapshark.com/redirect?dealID=${g.cheapestDealID}`,
      steamUrl: g.steamAppID ? `https://store.steampowered.com/app/${g.steamAppID}/` : null,
      thumbnail: g.thumb || null,
    }));
    return { count: games.length, games };
  },
});
