import { parseHTML } from "../_shared/html-parsers.ts";

/** Plain text of a short HTML fragment (a summary): tags dropped, entities decoded, whitespace collapsed. */
export function plainText(html: string | null | undefined): string | null {
  if (!html) return null;
  const { document } = parseHTML(
    `<!doctype html><html><body>${html.replace(/<\/p>|<br\s*\/?>/gi, (tag) => `${tag} `)}</body></html>`,
  );
  return (document.body?.textContent ?? "").replace(/\s+/g, " ").trim() || null;
}
