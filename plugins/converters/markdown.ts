import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { documentText } from "./_json.ts";
import { renderMarkdown } from "./_markdown.ts";

export default defineEndpoint({
  name: "markdown",
  method: "GET",
  price: "$0.005",
  summary: "Render Markdown (GitHub flavoured) to sanitized HTML",
  description:
    "Raw HTML in the Markdown is sanitized: scripts, styles, iframes, event handlers and javascript: or data: " +
    "URLs are removed, so the HTML is safe to embed. Links may use http, https and mailto. Rendering that takes " +
    "over 2 seconds (crafted emphasis runs, extreme nesting) is refused.",
  input: v.object({
    markdown: documentText("Markdown text, at most 100,000 characters"),
    gfm: v.optional(
      v.pipe(v.boolean(), v.description("GitHub flavoured Markdown: tables, task lists, strikethrough, autolinks")),
      true,
    ),
    breaks: v.optional(v.pipe(v.boolean(), v.description("Turn single line breaks into <br>")), false),
  }),
  output: v.object({
    html: v.string(),
  }),
  example: {
    input: {
      markdown: "# Hi\n\nSome **bold** text and a [link](https://example.com).<script>alert(1)</script>",
      gfm: true,
      breaks: false,
    },
    output: {
      html: '<h1>Hi</h1>\n<p>Some <strong>bold</strong> text and a <a href="https://example.com">link</a>.</p>\n',
    },
  },
  async handler({ input, signal }) {
    return { html: await renderMarkdown({ ...input, output: "html" }, signal) };
  },
});
