import * as v from "valibot";
import type TurndownService from "turndown";
import { defineEndpoint } from "../../core/endpoint.ts";
import { lazy } from "../../core/runtime/lazy.ts";
import { gfm } from "./_markdown-gfm.ts";
import { contentOrUrl, urlParam } from "./_source.ts";
import { decodeBody } from "../web/_page-fetch.ts";

const input = v.object({
  html: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100_000), v.description("HTML document or fragment (or give url)"))),
  url: urlParam("HTML page"),
  headingStyle: v.optional(v.pipe(v.picklist(["atx", "setext"]), v.description("atx: # Title; setext: underlined h1/h2")), "atx"),
  codeBlockStyle: v.optional(v.pipe(v.picklist(["fenced", "indented"]), v.description("fenced: ``` blocks; indented: four spaces")), "fenced"),
});

export default defineEndpoint({
  name: "html-md",
  method: "GET",
  price: "$0.01",
  mcp: true,
  summary: "Convert HTML (inline or at a URL) to Markdown, with GitHub-flavoured tables",
  description:
    "Give html or url. Scripts, styles, forms and the document head are dropped; links, images, lists, code blocks and tables are kept. " +
    "A URL is fetched through the egress guard (public http(s) targets, 5 MB cap); a target that fails is a 502 and not charged.",
  probes: true,
  oneOf: [["html"], ["url"]],
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
  async handler({ input, egress }) {
    const source = await contentOrUrl(egress, input.html, input.url);
    const html = "inline" in source ? source.inline : decodeBody(source.fetched, source.contentType);
    const markdown = (await converter(input)).turndown(html);
    return { markdown, chars: markdown.length };
  },
});

/** turndown and its DOM (domino) are loaded on the first call, not at boot. */
const turndown = lazy(() => import("turndown").then((m) => m.default));

async function converter(options: v.InferOutput<typeof input>): Promise<TurndownService> {
  const TurndownService = await turndown();
  const service = new TurndownService({ headingStyle: options.headingStyle, codeBlockStyle: options.codeBlockStyle, bulletListMarker: "-" });
  service.remove(["head", "title", "meta", "link", "script", "style", "noscript", "template", "iframe", "object", "embed", "form", "button", "select", "textarea"]);
  service.use(gfm);
  return service;
}
