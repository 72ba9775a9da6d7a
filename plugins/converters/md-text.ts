import * as v from "valibot";
import { convert, type HtmlToTextOptions } from "html-to-text";
import { defineEndpoint } from "../../core/endpoint.ts";
import { documentText } from "./_json.ts";
import { renderMarkdown } from "./_markdown.ts";

const headings = ["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } }));

const textOptions = (keepLinks: boolean): HtmlToTextOptions => ({
  wordwrap: false,
  selectors: [
    ...headings,
    { selector: "a", options: { ignoreHref: !keepLinks, linkBrackets: ["(", ")"] } },
    { selector: "img", format: keepLinks ? "image" : "skip", options: { linkBrackets: ["(", ")"] } },
    { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
    { selector: "script", format: "skip" },
    { selector: "style", format: "skip" },
  ],
});

export default defineEndpoint({
  name: "md-text",
  method: "GET",
  price: "$0.005",
  summary: "Turn Markdown into plain text: formatting removed, lists and tables kept readable",
  description: "Links keep only their text unless keepLinks is true, which appends the URL in parentheses (and keeps images as alt text and URL).",
  input: v.object({
    markdown: documentText("Markdown text, at most 100,000 characters"),
    keepLinks: v.optional(v.pipe(v.boolean(), v.description("Append link and image URLs in parentheses")), false),
  }),
  output: v.object({
    text: v.string(),
  }),
  example: {
    input: { markdown: "# Notes\n\nRead the **guide** at [our site](https://example.com).\n\n- one\n- two", keepLinks: false },
    output: { text: "Notes\n\nRead the guide at our site.\n\n * one\n * two" },
  },
  handler({ input }) {
    const html = renderMarkdown(input.markdown, { gfm: true, breaks: false });
    return { text: convert(html, textOptions(input.keepLinks)).trim() };
  },
});
