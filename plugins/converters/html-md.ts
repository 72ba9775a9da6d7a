import * as v from "valibot";
import TurndownService from "turndown";
import { defineEndpoint } from "../../core/endpoint.ts";
import { gfm } from "./_markdown-gfm.ts";

const input = v.object({
  html: v.pipe(v.string(), v.minLength(1), v.maxLength(100_000), v.description("HTML document or fragment")),
  headingStyle: v.optional(v.pipe(v.picklist(["atx", "setext"]), v.description("atx: # Title; setext: underlined h1/h2")), "atx"),
  codeBlockStyle: v.optional(v.pipe(v.picklist(["fenced", "indented"]), v.description("fenced: ``` blocks; indented: four spaces")), "fenced"),
});

export default defineEndpoint({
  name: "html-md",
  method: "GET",
  price: "$0.01",
  summary: "Convert HTML to Markdown, with GitHub-flavoured tables",
  description: "Scripts, styles, forms and the document head are dropped; links, images, lists, code blocks and tables are kept.",
  input,
  output: v.object({
    markdown: v.string(),
    chars: v.pipe(v.number(), v.description("Length of the Markdown in characters")),
  }),
  example: {
    input: { html: "<h1>Prices</h1><p>See <a href=\"https://example.com\">the list</a>.</p><table><tr><th>Item</th><th>USD</th></tr><tr><td>Tea</td><td>3</td></tr></table>" },
    output: {
      markdown: "# Prices\n\nSee [the list](https://example.com).\n\n| Item | USD |\n| --- | --- |\n| Tea | 3 |",
      chars: 88,
    },
  },
  handler({ input }) {
    const markdown = converter(input).turndown(input.html);
    return { markdown, chars: markdown.length };
  },
});

function converter(options: v.InferOutput<typeof input>): TurndownService {
  const service = new TurndownService({ headingStyle: options.headingStyle, codeBlockStyle: options.codeBlockStyle, bulletListMarker: "-" });
  service.remove(["head", "title", "meta", "link", "script", "style", "noscript", "template", "iframe", "object", "embed", "form", "button", "select", "textarea"]);
  service.use(gfm);
  return service;
}
