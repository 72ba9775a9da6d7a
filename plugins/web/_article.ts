import { Readability } from "@mozilla/readability";
import { parseHTML } from "./_html-parsers.ts";
import { htmlToText } from "./_html-text.ts";

/** Readability's article, or the body text when it finds none. */
export function readArticle(html: string, url: string) {
  const { document } = parseHTML(html);
  const lang = document.documentElement?.getAttribute("lang") || null;
  const pageTitle = document.querySelector("title")?.textContent?.trim() || null;
  const bodyText = htmlToText(document.body?.innerHTML ?? "");
  const parsed = tryReadability(document, url);
  if (parsed?.content && parsed.textContent?.trim()) {
    return {
      title: clean(parsed.title) ?? pageTitle,
      byline: clean(parsed.byline),
      siteName: clean(parsed.siteName),
      publishedTime: clean(parsed.publishedTime),
      lang: clean(parsed.lang) ?? lang,
      excerpt: clean(parsed.excerpt),
      text: htmlToText(parsed.content),
      method: "readability" as const,
    };
  }
  return { title: pageTitle, byline: null, siteName: null, publishedTime: null, lang, excerpt: null, text: bodyText, method: "body" as const };
}

function tryReadability(document: unknown, url: string) {
  try {
    Object.defineProperty(document, "documentURI", { value: url, configurable: true });
    return new Readability(document as Document).parse();
  } catch {
    return null;
  }
}

function clean(value: string | null | undefined): string | null {
  const text = value?.replace(/\s+/g, " ").trim();
  return text ? text : null;
}
