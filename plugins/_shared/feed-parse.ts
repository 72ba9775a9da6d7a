import { XMLParser } from "fast-xml-parser";
import { htmlToText, truncate } from "./html-text.ts";

export interface FeedItem {
  title: string | null;
  link: string | null;
  date: string | null;
  summary: string | null;
  author: string | null;
  id: string | null;
}

export interface Feed {
  format: "rss" | "atom" | "rdf" | "json";
  title: string | null;
  link: string | null;
  description: string | null;
  items: FeedItem[];
}

const summaryChars = 500;
const listTags = new Set(["item", "entry", "link", "author", "category"]);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => listTags.has(name),
});

type Node = Record<string, unknown>;

/** Parses RSS 2.0, RSS 1.0 (RDF), Atom or JSON Feed; null when the text is none of them. */
export function parseFeed(text: string, baseUrl: string): Feed | null {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{")) return parseJsonFeed(trimmed, baseUrl);
  let doc: Node;
  try {
    doc = parser.parse(trimmed) as Node;
  } catch {
    return null;
  }
  const rss = asNode(doc.rss);
  if (rss) return rssFeed("rss", asNode(rss.channel) ?? {}, list(asNode(rss.channel)?.item), baseUrl);
  const rdf = asNode(doc.RDF);
  if (rdf) return rssFeed("rdf", asNode(rdf.channel) ?? {}, list(rdf.item), baseUrl);
  const atom = asNode(doc.feed);
  if (atom) return atomFeed(atom, baseUrl);
  return null;
}

function rssFeed(format: "rss" | "rdf", channel: Node, items: unknown[], base: string): Feed {
  return {
    format,
    title: textOf(channel.title),
    link: absolute(textOf(channel.link), base),
    description: textOf(channel.description),
    items: items
      .map(asNode)
      .filter((n): n is Node => n !== undefined)
      .map((item) => ({
        title: textOf(item.title),
        link: absolute(textOf(item.link), base),
        date: isoDate(textOf(item.pubDate) ?? textOf(item.date) ?? textOf(item.updated)),
        summary: summarize(textOf(item.description) ?? textOf(item.encoded)),
        author: textOf(item.creator) ?? textOf(item.author),
        id: textOf(item.guid) ?? str(item["@_about"]),
      })),
  };
}

function atomFeed(feed: Node, base: string): Feed {
  return {
    format: "atom",
    title: textOf(feed.title),
    link: absolute(atomLink(feed.link), base),
    description: textOf(feed.subtitle),
    items: list(feed.entry)
      .map(asNode)
      .filter((n): n is Node => n !== undefined)
      .map((entry) => ({
        title: textOf(entry.title),
        link: absolute(atomLink(entry.link), base),
        date: isoDate(textOf(entry.published) ?? textOf(entry.updated)),
        summary: summarize(textOf(entry.summary) ?? textOf(entry.content)),
        author: textOf(asNode(list(entry.author)[0])?.name),
        id: textOf(entry.id),
      })),
  };
}

function parseJsonFeed(text: string, base: string): Feed | null {
  let doc: Node;
  try {
    doc = JSON.parse(text) as Node;
  } catch {
    return null;
  }
  if (typeof doc.version !== "string" || !doc.version.includes("jsonfeed.org")) return null;
  return {
    format: "json",
    title: str(doc.title),
    link: absolute(str(doc.home_page_url), base),
    description: str(doc.description),
    items: list(doc.items)
      .map(asNode)
      .filter((n): n is Node => n !== undefined)
      .map((item) => ({
        title: str(item.title),
        link: absolute(str(item.url) ?? str(item.external_url), base),
        date: isoDate(str(item.date_published) ?? str(item.date_modified)),
        summary: summarize(str(item.summary) ?? str(item.content_text) ?? str(item.content_html)),
        author: str(asNode(list(item.authors)[0])?.name) ?? str(asNode(item.author)?.name),
        id: item.id === undefined ? null : String(item.id),
      })),
  };
}

/** Atom's alternate link, or its first link without a rel. */
function atomLink(links: unknown): string | null {
  const nodes = list(links)
    .map(asNode)
    .filter((n): n is Node => n !== undefined);
  const pick = nodes.find((l) => l["@_rel"] === "alternate") ?? nodes.find((l) => l["@_rel"] === undefined) ?? nodes[0];
  return str(pick?.["@_href"]);
}

function textOf(value: unknown): string | null {
  if (Array.isArray(value)) return textOf(value[0]);
  if (typeof value === "string" || typeof value === "number") return str(String(value));
  const node = asNode(value);
  return node ? textOf(node["#text"]) : null;
}

function summarize(html: string | null): string | null {
  if (!html) return null;
  const text = htmlToText(html).replace(/\n/g, " ");
  return text ? truncate(text, summaryChars) : null;
}

function isoDate(value: string | null): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function absolute(link: string | null, base: string): string | null {
  if (!link) return null;
  try {
    return new URL(link, base).href;
  } catch {
    return null;
  }
}

const str = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value.trim() : null);
const list = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
const asNode = (value: unknown): Node | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Node) : undefined;
