import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { readMeta } from "./_meta.ts";
import { fetchHtml } from "../_shared/page-fetch.ts";

const meta = v.nullable(v.string());

export default defineEndpoint({
  name: "meta-tags",
  method: "GET",
  price: "$0.005",
  mcp: true,
  probes: true,
  summary: "Read a page's title, description, canonical URL, OpenGraph and Twitter card tags and icons",
  description:
    "GETs the page through the egress guard and reads its HTML as served (no JavaScript is run, so pages built in " +
    "the browser may be sparse). The charset the server or the page declares is honoured. Relative links are made " +
    "absolute. For each og:* and twitter:* key the first value is kept. A non-2xx answer or an unreachable page is a " +
    "502; a response that is not HTML is a 400.",
  input: v.object({ url: urlInput("Page to read") }),
  output: v.object({
    url: v.string(),
    finalUrl: v.string(),
    status: v.number(),
    title: meta,
    description: meta,
    canonical: meta,
    lang: meta,
    robots: meta,
    viewport: meta,
    openGraph: v.pipe(v.record(v.string(), v.string()), v.description("og:* properties, e.g. og:title, og:image")),
    twitter: v.pipe(v.record(v.string(), v.string()), v.description("twitter:* card tags")),
    icons: v.array(
      v.object({ rel: v.string(), href: v.string(), sizes: v.nullable(v.string()), type: v.nullable(v.string()) }),
    ),
  }),
  example: {
    input: { url: "https://github.com/" },
    output: {
      url: "https://github.com/",
      finalUrl: "https://github.com/",
      status: 200,
      title: "GitHub · Build and ship software on a single, collaborative platform · GitHub",
      description: "Join the world's most widely adopted, AI-powered developer platform.",
      canonical: "https://github.com/",
      lang: "en",
      robots: null,
      viewport: "width=device-width",
      openGraph: {
        "og:site_name": "GitHub",
        "og:title": "GitHub · Build and ship software on a single, collaborative platform",
        "og:image": "https://github.githubassets.com/assets/home24-5939032587c9.jpg",
        "og:type": "object",
        "og:url": "https://github.com/",
      },
      twitter: { "twitter:site": "@github", "twitter:card": "summary_large_image" },
      icons: [
        {
          rel: "icon",
          href: "https://github.githubassets.com/favicons/favicon.svg",
          sizes: null,
          type: "image/svg+xml",
        },
      ],
    },
  },
  cacheTtl: 600,
  async handler({ input, egress }) {
    const page = await fetchHtml(egress, input.url);
    return { url: input.url, finalUrl: page.url, status: page.status, ...readMeta(page.html, page.url) };
  },
});
