import { loadHtml } from "../_shared/html-parsers.ts";
import * as v from "valibot";
import type { Egress } from "../../core/endpoint.ts";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { parseFeed, type Feed } from "../_shared/feed-parse.ts";
import { decodeBody, fetchTarget } from "../_shared/page-fetch.ts";

const feedAccept =
  "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, text/html;q=0.5";
const Text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description));

export default defineEndpoint({
  name: "rss",
  method: "GET",
  price: "$0.01",
  probes: true,
  summary: "Read an RSS, Atom or JSON feed: items with title, link, ISO date and a plain-text summary",
  description:
    "Parses RSS 2.0, RSS 1.0 (RDF), Atom and JSON Feed with fast-xml-parser. Given an HTML page instead, follows its " +
    '<link rel="alternate"> feed once. Summaries are plain text, cut at 500 characters. Items keep the feed\'s order.',
  input: v.object({
    url: v.pipe(v.string(), v.url(), v.maxLength(2048), v.description("Feed URL, or a page that links to its feed")),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Most items returned")),
      20,
    ),
  }),
  output: v.object({
    url: v.pipe(v.string(), v.description("The feed's final URL")),
    format: v.picklist(["rss", "atom", "rdf", "json"]),
    title: Text("Feed title"),
    link: Text("The site the feed belongs to"),
    description: Text("Feed description or subtitle"),
    itemCount: v.pipe(v.number(), v.description("Items in the feed, before the limit")),
    items: v.array(
      v.object({
        title: Text("Item title"),
        link: Text("Absolute link to the item"),
        date: Text("Publication (or else update) time, ISO 8601 UTC"),
        summary: Text("Plain-text summary, at most 500 characters"),
        author: Text("Author as the feed names it"),
        id: Text("guid or id"),
      }),
    ),
  }),
  example: {
    input: { url: "https://cyber.harvard.edu/rss/examples/rss2sample.xml", limit: 1 },
    output: {
      url: "https://cyber.harvard.edu/rss/examples/rss2sample.xml",
      format: "rss",
      title: "Liftoff News",
      link: "http://liftoff.msfc.nasa.gov/",
      description: "Liftoff to Space Exploration.",
      itemCount: 4,
      items: [
        {
          title: "Star City",
          link: "http://liftoff.msfc.nasa.gov/news/2003/news-starcity.asp",
          date: "2003-06-03T09:39:21.000Z",
          summary:
            "How do Americans get ready to work with Russians aboard the International Space Station? They take a crash course in culture, language and protocol at Russia's Star City.",
          author: null,
          id: "http://liftoff.msfc.nasa.gov/2003/06/03.html#item573",
        },
      ],
    },
  },
  cacheTtl: 600,
  async handler({ input, egress }) {
    const { url, feed } = await loadFeed(egress, input.url);
    return {
      url,
      format: feed.format,
      title: feed.title,
      link: feed.link,
      description: feed.description,
      itemCount: feed.items.length,
      items: feed.items.slice(0, input.limit),
    };
  },
});

async function loadFeed(egress: Egress, url: string, hops = 0): Promise<{ url: string; feed: Feed }> {
  const res = await fetchTarget(egress, url, { accept: feedAccept });
  const text = decodeBody(res.body, res.headers["content-type"]);
  const feed = parseFeed(text, res.url);
  if (feed) return { url: res.url, feed };
  const linked = hops === 0 ? alternateFeed(text, res.url) : undefined;
  if (linked) return loadFeed(egress, linked, hops + 1);
  throw badRequest("the URL is not a feed and links to none", { url: res.url });
}

/** The first feed a page advertises with <link rel="alternate">. */
function alternateFeed(html: string, base: string): string | undefined {
  const $ = loadHtml(html);
  const href = $('link[rel~="alternate"]')
    .toArray()
    .map((el) => $(el))
    .find((link) => /(rss|atom|feed)\+(xml|json)/i.test(link.attr("type") ?? ""))
    ?.attr("href");
  if (!href) return undefined;
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}
