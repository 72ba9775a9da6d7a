/** A page as Wikipedia's REST API describes it (summary endpoint and feed entries). */
export interface RestPage {
  type?: string;
  title: string;
  displaytitle?: string;
  pageid?: number;
  description?: string;
  extract?: string;
  thumbnail?: { source: string; width: number; height: number };
  content_urls?: { desktop?: { page?: string } };
  wikibase_item?: string;
  timestamp?: string;
}

/** The path form of a title: spaces as underscores, each character percent-encoded as needed. */
export const titlePath = (title: string) => encodeURIComponent(title.trim().replace(/ /g, "_"));

export const pageUrl = (page: RestPage) => page.content_urls?.desktop?.page ?? `https://en.wikipedia.org/wiki/${titlePath(page.title)}`;

export const licence = "Text CC BY-SA 4.0, from Wikipedia; attribute and link the article";
