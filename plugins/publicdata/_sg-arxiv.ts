import { XMLParser } from "fast-xml-parser";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export interface ArxivPaper {
  id: string;
  version: number;
  title: string;
  authors: string[];
  abstract: string;
  categories: string[];
  primaryCategory: string | null;
  published: string;
  updated: string;
  doi: string | null;
  journalRef: string | null;
  comment: string | null;
  url: string;
  pdfUrl: string;
}

type Node = Record<string, any>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ["entry", "author", "link", "category"].includes(name),
});

const oneLine = (text: unknown) =>
  String(text ?? "")
    .replace(/\s+/g, " ")
    .trim();
const textOf = (node: unknown) => (node && typeof node === "object" ? oneLine((node as Node)["#text"]) : oneLine(node));

/** Parses the arXiv API's Atom feed; an entry pointing at arxiv.org/api/errors is the API refusing the query. */
export function parseArxivFeed(xml: string): { total: number; papers: ArxivPaper[]; error: string | null } {
  const feed = (parser.parse(xml) as Node).feed as Node | undefined;
  if (!feed) throw upstreamFailed("arxiv", "arxiv answered something other than an Atom feed");
  const entries: Node[] = feed.entry ?? [];
  const refused = entries.find((e) => textOf(e.id).includes("/api/errors"));
  if (refused) return { total: 0, papers: [], error: textOf(refused.summary) };
  return {
    total: Number(textOf(feed.totalResults)) || 0,
    papers: entries.filter((e) => textOf(e.title)).map(paperOf),
    error: null,
  };
}

function paperOf(e: Node): ArxivPaper {
  const abs = textOf(e.id);
  const [, id = abs, version = "1"] = /arxiv\.org\/abs\/(.+?)(?:v(\d+))?$/.exec(abs) ?? [];
  const pdf = (e.link as Node[] | undefined)?.find((l) => l["@title"] === "pdf")?.["@href"];
  return {
    id,
    version: Number(version),
    title: textOf(e.title),
    authors: ((e.author as Node[] | undefined) ?? []).map((a) => textOf(a.name)),
    abstract: textOf(e.summary),
    categories: ((e.category as Node[] | undefined) ?? []).map((c) => String(c["@term"])),
    primaryCategory: e.primary_category?.["@term"] ?? null,
    published: new Date(textOf(e.published)).toISOString(),
    updated: new Date(textOf(e.updated)).toISOString(),
    doi: textOf(e.doi) || null,
    journalRef: textOf(e.journal_ref) || null,
    comment: textOf(e.comment) || null,
    url: `https://arxiv.org/abs/${id}v${version}`,
    pdfUrl: pdf ? String(pdf).replace(/^http:/, "https:") : `https://arxiv.org/pdf/${id}v${version}`,
  };
}
