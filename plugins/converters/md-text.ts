import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { documentText } from "./_json.ts";
import { renderMarkdown } from "./_markdown.ts";

export default defineEndpoint({
  name: "md-text",
  method: "GET",
  price: "$0.005",
  summary: "Turn Markdown into plain text: formatting removed, lists and tables kept readable",
  description:
    "Links keep only their text and images become their alt text; with keepLinks the URL follows in parentheses. " +
    "Tables are laid out in aligned columns; raw HTML scripts and styles are dropped.",
  input: v.object({
    markdown: documentText("Markdown text, at most 100,000 characters"),
    keepLinks: v.optional(v.pipe(v.boolean(), v.description("Append link and image URLs in parentheses")), false),
  }),
  output: v.object({
    text: v.string(),
  }),
  example: {
    input: {
      markdown: "# Notes\n\nRead the **guide** at [our site](https://example.com).\n\n- one\n- two",
      keepLinks: false,
    },
    output: { text: "Notes\n\nRead the guide at our site.\n\n * one\n * two" },
  },
  async handler({ input, signal }) {
    return {
      text: await renderMarkdown(
        { markdown: input.markdown, gfm: true, breaks: false, output: "text", keepLinks: input.keepLinks },
        signal,
      ),
    };
  },
});
