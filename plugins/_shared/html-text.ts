import { parseHTML } from "./html-parsers.ts";
import { htmlToTextWith, tidyText } from "./html-text-core.mjs";

export { tidyText };

/** Readable plain text from an HTML fragment: one line per block, whitespace collapsed, entities decoded. */
export const htmlToText = (html: string): string => htmlToTextWith(parseHTML as never, html);

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
