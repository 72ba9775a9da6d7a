import * as v from "valibot";
import { defineEndpoint, type Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { parseFeed } from "../_shared/feed-parse.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

/** Each publisher's RSS feed: upstream name, path below its base URL, and the name shown as the headline's source. */
const FEEDS = [
  { upstream: "coindesk-rss", path: "/", source: "CoinDesk" },
  { upstream: "cointelegraph-rss", path: "", source: "Cointelegraph" },
  { upstream: "decrypt-rss", path: "", source: "Decrypt" },
  { upstream: "theblock-rss", path: "", source: "The Block" },
] as const;

const Headline = v.object({
  title: v.string(),
  url: v.string(),
  source: v.pipe(v.string(), v.description("Publisher")),
  publishedAt: v.nullable(v.pipe(v.string(), v.description("ISO 8601"))),
  summary: v.pipe(v.nullable(v.string()), v.description("The feed's own summary, plain text, at most 500 characters")),
  author: v.nullable(v.string()),
});
type Headline = v.InferOutput<typeof Headline>;

async function readFeed(api: Upstream, path: string, source: string, name: string): Promise<Headline[]> {
  const feed = parseFeed(await api.text(path), api.url);
  if (!feed) throw upstreamFailed(name, `${name} did not answer an RSS or Atom feed`);
  return feed.items.flatMap((item) =>
    item.title && item.link
      ? [
          {
            title: item.title,
            url: item.link,
            source,
            publishedAt: item.date,
            summary: item.summary,
            author: item.author,
          },
        ]
      : [],
  );
}

/** The same story syndicated twice: one URL without its tracking query, fragment or trailing slash, or one title. */
function canonicalUrl(link: string): string {
  const url = new URL(link);
  return `${url.host.toLowerCase().replace(/^www\./, "")}${url.pathname.replace(/\/+$/, "")}`;
}

export default defineEndpoint({
  name: "news",
  method: "GET",
  price: "$0.005",
  summary: "Latest crypto headlines from CoinDesk, Cointelegraph, Decrypt and The Block, newest first, deduplicated",
  description:
    "The publishers' public RSS feeds read at once and merged newest first; a story seen twice (same URL without its query, or same title) is listed once. " +
    "Headline, link and the feed's short summary only, as the feeds' terms allow. A feed that fails is named in sources.missing; all failing is a 502 (not charged).",
  input: v.object({
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Headlines to return, 1-100")),
      20,
    ),
  }),
  output: v.object({ headlines: v.array(Headline), sources: SourcesReport }),
  example: {
    input: { limit: 1 },
    output: {
      headlines: [
        {
          title: "Bitcoin ETFs Record Largest Weekly Inflows Since July",
          url: "https://www.coindesk.com/markets/2025/08/18/bitcoin-etfs-record-largest-weekly-inflows-since-july",
          source: "CoinDesk",
          publishedAt: "2025-08-18T14:05:00.000Z",
          summary: "U.S. spot bitcoin ETFs took in $1.2 billion over five trading days.",
          author: "Jane Doe",
        },
      ],
      sources: { answered: ["coindesk-rss", "cointelegraph-rss", "decrypt-rss", "theblock-rss"], missing: [] },
    },
  },
  cacheTtl: 300,
  upstreams: FEEDS.map((f) => f.upstream),
  async handler({ input, upstream, signal }) {
    const { values, sources } = await gatherVenues(
      Object.fromEntries(
        FEEDS.map((f) => [f.upstream, () => readFeed(upstream(f.upstream), f.path, f.source, f.upstream)]),
      ),
      signal,
    );
    const all = values.flatMap((x) => x.value).sort((a, b) => (b.publishedAt ?? "").localeCompare(a.publishedAt ?? ""));
    const seen = new Set<string>();
    const headlines = all.filter((h) => {
      const keys = [canonicalUrl(h.url), h.title.toLowerCase().replace(/\s+/g, " ")];
      if (keys.some((k) => seen.has(k))) return false;
      keys.forEach((k) => seen.add(k));
      return true;
    });
    return { headlines: headlines.slice(0, input.limit), sources };
  },
});
