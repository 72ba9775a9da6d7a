import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { createWorkerPool, refusedWork } from "../../core/runtime/worker-pool.ts";
import { contentOrUrl, urlParam } from "./_source.ts";
import { decodeBody } from "../_shared/page-fetch.ts";

const input = v.object({
  html: v.optional(
    v.pipe(v.string(), v.minLength(1), v.maxLength(100_000), v.description("HTML document or fragment (or give url)")),
  ),
  url: urlParam("HTML page"),
  headingStyle: v.optional(
    v.pipe(v.picklist(["atx", "setext"]), v.description("atx: # Title; setext: underlined h1/h2")),
    "atx",
  ),
  codeBlockStyle: v.optional(
    v.pipe(v.picklist(["fenced", "indented"]), v.description("fenced: ``` blocks; indented: four spaces")),
    "fenced",
  ),
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
    input: {
      html: '<h1>Prices</h1><p>See <a href="https://example.com">the list</a>.</p><table><tr><th>Item</th><th>USD</th></tr><tr><td>Tea</td><td>3</td></tr></table>',
    },
    output: {
      markdown: "# Prices\n\nSee [the list](https://example.com).\n\n| Item | USD |\n| --- | --- |\n| Tea | 3 |",
      chars: 88,
    },
  },
  async handler({ input, egress, signal }) {
    const source = await contentOrUrl(egress, input.html, input.url);
    const html = "inline" in source ? source.inline : decodeBody(source.fetched, source.contentType);
    const job = { html, headingStyle: input.headingStyle, codeBlockStyle: input.codeBlockStyle, maxDepth };
    const markdown = await pool.run<string>(job, { timeoutMs: convertTimeoutMs, signal }).catch((error) => {
      throw refusedWork(error, "inline" in source ? "html" : "url", "the HTML");
    });
    return { markdown, chars: markdown.length };
  },
});

/** turndown recurses once per level; real documents nest far less. */
const maxDepth = 256;
const convertTimeoutMs = 10_000;
const pool = createWorkerPool({ file: new URL("./_turndown-worker.mjs", import.meta.url), memoryMb: 256 });
