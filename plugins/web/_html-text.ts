import { parseHTML } from "./_html-parsers.ts";

const blockEnd = /<\/(p|div|h[1-6]|li|dt|dd|blockquote|pre|tr|table|section|article|header|footer|aside|ul|ol|figure|figcaption)\s*>|<br\s*\/?>/gi;

/** Readable plain text from an HTML fragment: one line per block, whitespace collapsed, entities decoded. */
export function htmlToText(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html.replace(blockEnd, (tag) => `${tag}\n`)}</body></html>`);
  for (const node of Array.from(document.querySelectorAll("script, style, noscript, template"))) node.remove();
  return tidyText(document.body?.textContent ?? "");
}

export function tidyText(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[\s\u00a0]+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}

/** Words as a reader counts them: runs of letters or digits, with inner apostrophes and hyphens. */
export function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
}

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
