// Plain text from HTML, shared by _html-text.ts (main thread) and _article-worker.mjs (a worker thread, where
// the tsx loader does not reach). The DOM parser is passed in so the main thread keeps loading it lazily.

const blockEnd =
  /<\/(p|div|h[1-6]|li|dt|dd|blockquote|pre|tr|table|section|article|header|footer|aside|ul|ol|figure|figcaption)\s*>|<br\s*\/?>/gi;

/** Readable plain text from an HTML fragment: one line per block, whitespace collapsed, entities decoded. */
export function htmlToTextWith(parseHTML, html) {
  const { document } = parseHTML(
    `<!doctype html><html><body>${html.replace(blockEnd, (tag) => `${tag}\n`)}</body></html>`,
  );
  for (const node of Array.from(document.querySelectorAll("script, style, noscript, template"))) node.remove();
  return tidyText(document.body?.textContent ?? "");
}

export function tidyText(text) {
  return text
    .split("\n")
    .map((line) => line.replace(/[\s\u00a0]+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}
