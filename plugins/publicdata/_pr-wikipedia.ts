import * as v from "valibot";

const o = v.optional;
/** What the code reads of a page as Wikipedia's REST API describes it (summary endpoint and feed entries). */
export const RestPage = v.object({
  type: o(v.string()),
  title: v.string(),
  pageid: o(v.number()),
  description: o(v.string()),
  extract: o(v.string()),
  thumbnail: o(v.object({ source: v.string(), width: v.number(), height: v.number() })),
  content_urls: o(v.object({ desktop: o(v.object({ page: o(v.string()) })) })),
  wikibase_item: o(v.string()),
  timestamp: o(v.string()),
});
export type RestPage = v.InferOutput<typeof RestPage>;

/** The path form of a title: spaces as underscores, each character percent-encoded as needed. */
export const titlePath = (title: string) => encodeURIComponent(title.trim().replace(/ /g, "_"));

export const pageUrl = (page: RestPage) =>
  page.content_urls?.desktop?.page ?? `https://en.wikipedia.org/wiki/${titlePath(page.title)}`;

export const licence = "Text CC BY-SA 4.0, from Wikipedia; attribute and link the article";
