import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { limit } from "./_pr-inputs.ts";
import { plainText } from "./_pr-text.ts";

const s = v.nullable(v.string());
const n = v.nullable(v.number());
const Channel = v.nullable(v.object({ name: v.string(), country: v.nullable(v.object({ code: v.string() })) }));
const Show = v.object({
  id: v.number(),
  url: v.string(),
  name: v.string(),
  type: s,
  language: s,
  genres: v.array(v.string()),
  status: s,
  runtime: n,
  averageRuntime: n,
  premiered: s,
  ended: s,
  officialSite: s,
  rating: v.object({ average: n }),
  network: Channel,
  webChannel: Channel,
  externals: v.object({ imdb: s, thetvdb: n }),
  image: v.nullable(v.object({ medium: v.string(), original: v.string() })),
  summary: s,
});
/** What the code reads of TVmaze's show search. */
const Results = v.array(v.object({ score: v.number(), show: Show }));

export default defineEndpoint({
  name: "tv",
  method: "GET",
  price: "$0.005",
  summary: "Search TV shows by name: network, status, dates, genres, rating, runtime, summary, IMDb id",
  description:
    "From TVmaze's show search (fuzzy, at most 10 matches, best first). Summaries are plain text. Data CC BY-SA from TVmaze: attribute with the `url` link. No match is an empty list.",
  input: v.object({
    q: v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.description("Show name, e.g. breaking bad")),
    limit: limit(10, 5, "shows"),
  }),
  output: v.object({
    count: v.number(),
    shows: v.array(
      v.object({
        id: v.pipe(v.number(), v.description("TVmaze show id")),
        name: v.string(),
        type: v.nullable(v.string()),
        language: v.nullable(v.string()),
        genres: v.array(v.string()),
        status: v.nullable(v.pipe(v.string(), v.description("Running, Ended, To Be Determined, In Development"))),
        premiered: v.nullable(v.string()),
        ended: v.nullable(v.string()),
        network: v.nullable(v.pipe(v.string(), v.description("TV network or streaming service"))),
        country: v.nullable(v.string()),
        runtimeMinutes: v.nullable(v.number()),
        rating: v.nullable(v.pipe(v.number(), v.description("TVmaze users' average, 0-10"))),
        imdbId: v.nullable(v.string()),
        summary: v.nullable(v.string()),
        officialSite: v.nullable(v.string()),
        image: v.nullable(v.string()),
        url: v.string(),
        score: v.pipe(v.number(), v.description("Search relevance")),
      }),
    ),
  }),
  example: {
    input: { q: "breaking bad", limit: 1 },
    output: {
      count: 1,
      shows: [
        {
          id: 169,
          name: "Breaking Bad",
          type: "Scripted",
          language: "English",
          genres: ["Drama", "Crime", "Thriller"],
          status: "Ended",
          premiered: "2008-01-20",
          ended: "2019-10-11",
          network: "AMC",
          country: "US",
          runtimeMinutes: 60,
          rating: 9.2,
          imdbId: "tt0903747",
          summary:
            "Breaking Bad follows protagonist Walter White, a chemistry teacher who lives in New Mexico with his wife and teenage son who has cerebral palsy.",
          officialSite: "http://www.amc.com/shows/breaking-bad",
          image: "https://static.tvmaze.com/uploads/images/original_untouched/501/1253519.jpg",
          url: "https://www.tvmaze.com/shows/169/breaking-bad",
          score: 0.9077547,
        },
      ],
    },
  },
  cacheTtl: 12 * 3600,
  upstreams: ["tvmaze"],
  async handler({ input, upstream }) {
    const results = await upstream("tvmaze").json("/search/shows", Results, { query: { q: input.q } });
    const shows = results.slice(0, input.limit).map(({ score, show: s }) => {
      const channel = s.network ?? s.webChannel;
      return {
        id: s.id,
        name: s.name,
        type: s.type,
        language: s.language,
        genres: s.genres,
        status: s.status,
        premiered: s.premiered,
        ended: s.ended,
        network: channel?.name ?? null,
        country: channel?.country?.code ?? null,
        runtimeMinutes: s.runtime ?? s.averageRuntime,
        rating: s.rating.average,
        imdbId: s.externals.imdb,
        summary: plainText(s.summary),
        officialSite: s.officialSite,
        image: s.image?.original ?? null,
        url: s.url,
        score,
      };
    });
    return { count: shows.length, shows };
  },
});
