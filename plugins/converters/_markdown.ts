import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

export interface MarkdownOptions {
  gfm: boolean;
  breaks: boolean;
}

/** Markdown to HTML as marked renders it: raw HTML passes through, so never serve this unsanitized. */
export function renderMarkdown(markdown: string, options: MarkdownOptions): string {
  return new Marked({ gfm: options.gfm, breaks: options.breaks, async: false }).parse(markdown) as string;
}

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "del", "input"],
  allowedAttributes: {
    a: ["href", "name", "title"],
    img: ["src", "alt", "title", "width", "height"],
    code: ["class"],
    th: ["align"],
    td: ["align"],
    ol: ["start"],
    input: ["type", "checked", "disabled"],
  },
  allowedClasses: { code: ["language-*"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  // GFM task lists render checkboxes; anything else an <input> could be is dropped
  exclusiveFilter: (frame) => frame.tag === "input" && frame.attribs.type !== "checkbox",
};

/** HTML safe to embed: no scripts, event handlers, styles, iframes or javascript: URLs. */
export const sanitize = (html: string) => sanitizeHtml(html, sanitizeOptions);
