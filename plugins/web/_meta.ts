import { loadHtml } from "../_shared/html-parsers.ts";

export interface PageMeta {
  title: string | null;
  description: string | null;
  canonical: string | null;
  lang: string | null;
  robots: string | null;
  viewport: string | null;
  openGraph: Record<string, string>;
  twitter: Record<string, string>;
  icons: { rel: string; href: string; sizes: string | null; type: string | null }[];
}

/** og:image, og:url, twitter:image, og:image:secure_url...: URLs, so a relative one is resolved. */
const linkKey = /(?:image|url|video|audio)$/;
const iconRels = new Set(["icon", "shortcut icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon"]);

/** The head metadata of an HTML page; links are made absolute against the page's final URL. */
export function readMeta(html: string, pageUrl: string): PageMeta {
  const $ = loadHtml(html);
  const text = (value: string | undefined) => {
    const trimmed = value?.replace(/\s+/g, " ").trim();
    return trimmed ? trimmed : null;
  };
  const absolute = (href: string | undefined) => {
    if (!href?.trim()) return null;
    try {
      return new URL(href.trim(), pageUrl).href;
    } catch {
      return null;
    }
  };
  const metaNamed = (name: string) => text($(`meta[name="${name}" i]`).first().attr("content"));
  const prefixed = (prefix: string) => {
    const found: Record<string, string> = {};
    $("meta[property], meta[name]").each((_, el) => {
      const key = ($(el).attr("property") ?? $(el).attr("name") ?? "").toLowerCase();
      const content = text($(el).attr("content"));
      const value = content !== null && linkKey.test(key) ? (absolute(content) ?? content) : content;
      if (key.startsWith(prefix) && value !== null && !(key in found)) found[key] = value;
    });
    return found;
  };
  const icons: PageMeta["icons"] = [];
  $("link[rel][href]").each((_, el) => {
    const rel = ($(el).attr("rel") ?? "").toLowerCase().trim();
    const href = absolute($(el).attr("href"));
    if (iconRels.has(rel) && href)
      icons.push({ rel, href, sizes: $(el).attr("sizes") ?? null, type: $(el).attr("type") ?? null });
  });
  return {
    title: text($("title").first().text()),
    description: metaNamed("description"),
    canonical: absolute($('link[rel="canonical" i]').first().attr("href")),
    lang: text($("html").attr("lang")),
    robots: metaNamed("robots"),
    viewport: metaNamed("viewport"),
    openGraph: prefixed("og:"),
    twitter: prefixed("twitter:"),
    icons,
  };
}
