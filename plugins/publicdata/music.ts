import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { countryCode, limit } from "./_pr-inputs.ts";

const o = v.optional;
/** What the code reads of one item of an iTunes Search or Lookup answer: a track, a collection (album) or an artist. */
const ItunesItem = v.object({
  wrapperType: v.string(),
  kind: o(v.string()),
  artistId: o(v.number()),
  collectionId: o(v.number()),
  trackId: o(v.number()),
  artistName: v.string(),
  collectionName: o(v.string()),
  trackName: o(v.string()),
  artistLinkUrl: o(v.string()),
  collectionViewUrl: o(v.string()),
  trackViewUrl: o(v.string()),
  previewUrl: o(v.string()),
  artworkUrl100: o(v.string()),
  collectionPrice: o(v.number()),
  trackPrice: o(v.number()),
  releaseDate: o(v.string()),
  trackExplicitness: o(v.string()),
  collectionExplicitness: o(v.string()),
  trackCount: o(v.number()),
  trackNumber: o(v.number()),
  trackTimeMillis: o(v.number()),
  currency: o(v.string()),
  primaryGenreName: o(v.string()),
});
type ItunesItem = v.InferOutput<typeof ItunesItem>;
const ItunesAnswer = v.object({ results: v.array(ItunesItem) });

const entities = { song: "song", album: "album", artist: "musicArtist" } as const;
const n = v.nullable(v.number());
const s = v.nullable(v.string());

const Item = v.object({
  type: v.picklist(["song", "album", "artist"]),
  id: v.pipe(v.number(), v.description("iTunes id of the song, album or artist (the `id` input looks it up)")),
  title: v.pipe(v.string(), v.description("Song, album or artist name")),
  artist: v.string(),
  artistId: n,
  album: s,
  albumId: n,
  genre: s,
  releaseDate: v.nullable(v.pipe(v.string(), v.description("ISO 8601 (UTC)"))),
  durationMs: v.nullable(v.pipe(v.number(), v.description("Song length, milliseconds"))),
  trackNumber: n,
  trackCount: v.nullable(v.pipe(v.number(), v.description("Tracks on the album"))),
  explicit: v.nullable(v.boolean()),
  price: v.nullable(v.pipe(v.number(), v.description("Store price in `currency`; null when not sold on its own"))),
  currency: s,
  previewUrl: v.nullable(v.pipe(v.string(), v.description("30-second audio preview (AAC)"))),
  artwork: v.nullable(v.pipe(v.string(), v.description("Cover image, 100x100 pixels"))),
  url: v.pipe(v.string(), v.description("Apple Music page")),
});

function toItem(i: ItunesItem): v.InferOutput<typeof Item> | undefined {
  const common = {
    artist: i.artistName,
    artistId: i.artistId ?? null,
    genre: i.primaryGenreName ?? null,
    currency: i.currency ?? null,
  };
  const price = (p: number | undefined) => (p !== undefined && p >= 0 ? p : null);
  if (i.wrapperType === "track" && i.kind === "song" && i.trackId !== undefined) {
    return {
      type: "song",
      id: i.trackId,
      title: i.trackName ?? "",
      ...common,
      album: i.collectionName ?? null,
      albumId: i.collectionId ?? null,
      releaseDate: i.releaseDate ?? null,
      durationMs: i.trackTimeMillis ?? null,
      trackNumber: i.trackNumber ?? null,
      trackCount: i.trackCount ?? null,
      explicit: i.trackExplicitness ? i.trackExplicitness === "explicit" : null,
      price: price(i.trackPrice),
      previewUrl: i.previewUrl ?? null,
      artwork: i.artworkUrl100 ?? null,
      url: i.trackViewUrl ?? "",
    };
  }
  if (i.wrapperType === "collection" && i.collectionId !== undefined) {
    return {
      type: "album",
      id: i.collectionId,
      title: i.collectionName ?? "",
      ...common,
      album: i.collectionName ?? null,
      albumId: i.collectionId,
      releaseDate: i.releaseDate ?? null,
      durationMs: null,
      trackNumber: null,
      trackCount: i.trackCount ?? null,
      explicit: i.collectionExplicitness ? i.collectionExplicitness === "explicit" : null,
      price: price(i.collectionPrice),
      previewUrl: null,
      artwork: i.artworkUrl100 ?? null,
      url: i.collectionViewUrl ?? "",
    };
  }
  if (i.wrapperType === "artist" && i.artistId !== undefined) {
    return {
      type: "artist",
      id: i.artistId,
      title: i.artistName,
      ...common,
      album: null,
      albumId: null,
      releaseDate: null,
      durationMs: null,
      trackNumber: null,
      trackCount: null,
      explicit: null,
      price: null,
      currency: null,
      previewUrl: null,
      artwork: null,
      url: i.artistLinkUrl ?? "",
    };
  }
  return undefined;
}

export default defineEndpoint({
  name: "music",
  method: "GET",
  price: "$0.005",
  summary:
    "Search music (songs, albums or artists) or look one up by iTunes id: artist, album, release date, genre, duration, preview, artwork",
  description:
    "From Apple's iTunes Search API (keyless), in one country's store (default US). Give `q` to search (no match is an empty list) or `id` to look up one song, album or artist (an unknown id is a 404). Durations in milliseconds, prices in the store's currency. Apple's terms: use the data to promote the linked items (keep the `url` and `previewUrl` links).",
  input: v.object({
    q: v.optional(
      v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Search words, e.g. daft punk get lucky")),
    ),
    id: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.description("iTunes id of a song, album or artist")),
    ),
    type: v.optional(v.pipe(v.picklist(["song", "album", "artist"]), v.description("What a search returns")), "song"),
    country: v.optional(countryCode("Store country (ISO 3166-1 alpha-2)"), "US"),
    limit: limit(50, 10),
  }),
  oneOf: [["q"], ["id"]],
  output: v.object({ count: v.number(), results: v.array(Item) }),
  example: {
    input: { q: "ben frost nolan", limit: 1 },
    output: {
      count: 1,
      results: [
        {
          type: "song",
          id: 843666410,
          title: "Nolan",
          artist: "Ben Frost",
          artistId: 186406961,
          album: "A U R O R A",
          albumId: 843666402,
          genre: "Electronic",
          releaseDate: "2014-05-21T12:00:00Z",
          durationMs: 417587,
          trackNumber: 2,
          trackCount: 9,
          explicit: false,
          price: 1.29,
          currency: "USD",
          previewUrl:
            "https://audio-ssl.itunes.apple.com/itunes-assets/AudioPreview115/v4/41/fc/dc/41fcdcd3-6360-ea2a-e3f1-28e25b9a12da/mzaf_10177308312130238318.plus.aac.p.m4a",
          artwork:
            "https://is1-ssl.mzstatic.com/image/thumb/Music/v4/20/f5/cc/20f5cc47-6c42-116b-a258-fa47460ab095/724596959657.jpg/100x100bb.jpg",
          url: "https://music.apple.com/us/album/nolan/843666402?i=843666410&uo=4",
        },
      ],
    },
  },
  cacheTtl: 24 * 3600,
  upstreams: ["itunes"],
  async handler({ input, upstream }) {
    const country = input.country.toUpperCase();
    if (input.id !== undefined) {
      const answer = await upstream("itunes").json("/lookup", ItunesAnswer, { query: { id: input.id, country } });
      const results = answer.results.map(toItem).filter((item) => item !== undefined);
      if (results.length === 0)
        throw notFound(`No song, album or artist has iTunes id ${input.id} in the ${country} store`);
      return { count: results.length, results };
    }
    const answer = await upstream("itunes").json("/search", ItunesAnswer, {
      query: { term: input.q, media: "music", entity: entities[input.type], country, limit: input.limit },
    });
    const results = answer.results
      .map(toItem)
      .filter((item) => item !== undefined)
      .slice(0, input.limit);
    return { count: results.length, results };
  },
});
