// Reads a page in a worker thread (plain JavaScript: worker threads do not get the tsx loader). Parsing and
// Readability take time that grows faster than the page (800 nested elements held the event loop for
// seconds), so _article.ts runs them here, with a deadline and a heap limit, after a cheap depth check.
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { getDomain } from "tldts";
import { JobError, htmlDepthOver, serveJobs } from "../../core/runtime/worker-jobs.mjs";
import { htmlToTextWith } from "../_shared/html-text-core.mjs";

const htmlToText = (html) => htmlToTextWith(parseHTML, html);

function read({ html, url, maxDepth, outline }) {
  if (htmlDepthOver(html, maxDepth))
    throw new JobError("too-deep", `the page nests elements more than ${maxDepth} deep`);
  const { document } = parseHTML(html);
  const result = { article: article(document, url) };
  // Readability takes the document apart: the outline is read from a fresh parse.
  if (outline) result.outline = outlineOf(parseHTML(html).document, url);
  return result;
}

/** Readability's article, or the body text when it finds none. */
function article(document, url) {
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
      method: "readability",
    };
  }
  return {
    title: pageTitle,
    byline: null,
    siteName: null,
    publishedTime: null,
    lang,
    excerpt: null,
    text: bodyText,
    method: "body",
  };
}

/** Headings in document order, and links counted as internal when they share the page's registrable domain. */
function outlineOf(document, url) {
  const headings = Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6"))
    .map((h) => ({ level: Number(h.tagName.slice(1)), text: (h.textContent ?? "").replace(/\s+/g, " ").trim() }))
    .filter((h) => h.text);
  const host = new URL(url).hostname;
  const site = getDomain(host) ?? host;
  let internal = 0;
  let external = 0;
  for (const a of Array.from(document.querySelectorAll("a[href]"))) {
    const target = resolve(a.getAttribute("href") ?? "", url);
    if (!target || !/^https?:$/.test(target.protocol)) continue;
    if ((getDomain(target.hostname) ?? target.hostname) === site) internal++;
    else external++;
  }
  return { headings, links: { total: internal + external, internal, external } };
}

function tryReadability(document, url) {
  try {
    Object.defineProperty(document, "documentURI", { value: url, configurable: true });
    return new Readability(document).parse();
  } catch {
    return null;
  }
}

function clean(value) {
  const text = value?.replace(/\s+/g, " ").trim();
  return text ? text : null;
}

function resolve(href, base) {
  try {
    return new URL(href, base);
  } catch {
    return undefined;
  }
}

serveJobs(read);
