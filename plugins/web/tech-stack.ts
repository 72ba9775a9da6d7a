import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fetchHtml } from "../_shared/page-fetch.ts";
import { detectTechnologies } from "./_tech-detect.ts";

export default defineEndpoint({
  name: "tech-stack",
  method: "GET",
  price: "$0.05",
  probes: true,
  summary: "Detect the technologies behind a web page, with the evidence for each",
  description:
    "Fetches the page once through the egress guard and matches our own rule table (servers, CDNs, hosting, languages, frameworks, CMS, " +
    'analytics, widgets) against its response headers, <meta name="generator">, script URLs, cookie names and markup. Versions appear only ' +
    "when the page states them; technologies that only run in the browser's JavaScript are not seen.",
  input: v.object({
    url: v.pipe(v.string(), v.url(), v.maxLength(2048), v.description("Page to inspect (http or https)")),
  }),
  output: v.object({
    url: v.pipe(v.string(), v.description("Final URL after redirects")),
    technologies: v.array(
      v.object({
        name: v.string(),
        category: v.string(),
        version: v.nullable(v.string()),
        evidence: v.pipe(
          v.array(
            v.object({
              source: v.picklist(["header", "meta", "script", "cookie", "html", "implied"]),
              detail: v.string(),
            }),
          ),
          v.description(
            "What was seen: a header line, the generator tag, a script URL, a cookie name, a markup snippet, or the technology that implies it",
          ),
        ),
      }),
    ),
  }),
  example: {
    input: { url: "https://example.com/" },
    output: { url: "https://example.com/", technologies: [] },
  },
  cacheTtl: 3600,
  async handler({ input, egress }) {
    const page = await fetchHtml(egress, input.url);
    return { url: page.url, technologies: detectTechnologies(page) };
  },
});
