import * as v from "valibot";
import { defineEndpoint, type Egress } from "../../core/endpoint.ts";
import { urlInput } from "../_shared/web-inputs.ts";
import { readMeta } from "./_meta.ts";
import { decodeBody, mediaType } from "../_shared/page-fetch.ts";
import { describeUrl } from "./_url-parts.ts";

const text = v.nullable(v.string());

export default defineEndpoint({
  name: "url-info",
  method: "GET",
  price: "$0.01",
  probes: true,
  summary: "Take a URL apart: parts, registrable domain and public suffix, resolved address, and where it ends up",
  description:
    "Parses the URL (WHATWG) and its host against the Public Suffix List (tldts), then resolves the host through the " +
    "egress guard, which refuses private, loopback and metadata addresses with a 400. With `follow` (default) it GETs " +
    "the URL and reports the final URL after redirects, status, content type, size, server header and page title; a " +
    "target that cannot be reached is then a 502.",
  input: v.object({
    url: urlInput("URL to inspect"),
    follow: v.optional(v.pipe(v.boolean(), v.description("Also request the URL and report where it ends up")), true),
  }),
  output: v.object({
    url: v.pipe(v.string(), v.description("The URL as normalized by the WHATWG parser")),
    scheme: v.string(),
    hostname: v.string(),
    unicodeHostname: v.string(),
    port: v.nullable(v.number()),
    path: v.string(),
    query: v.array(v.object({ name: v.string(), value: v.string() })),
    fragment: text,
    registrableDomain: text,
    publicSuffix: text,
    subdomain: text,
    isIp: v.boolean(),
    ipVersion: v.nullable(v.picklist([4, 6])),
    isIcannSuffix: v.nullable(v.boolean()),
    isPrivateSuffix: v.nullable(
      v.pipe(v.boolean(), v.description("The suffix is a private PSL entry such as github.io")),
    ),
    address: v.pipe(v.string(), v.description("The public address the host resolved to")),
    final: v.nullable(
      v.object({
        url: v.string(),
        status: v.number(),
        redirects: v.array(v.string()),
        contentType: text,
        bytes: v.number(),
        server: text,
        title: text,
      }),
    ),
  }),
  example: {
    input: { url: "https://blog.example.co.uk/posts/1?ref=feed#top", follow: true },
    output: {
      url: "https://blog.example.co.uk/posts/1?ref=feed#top",
      scheme: "https",
      hostname: "blog.example.co.uk",
      unicodeHostname: "blog.example.co.uk",
      port: null,
      path: "/posts/1",
      query: [{ name: "ref", value: "feed" }],
      fragment: "top",
      registrableDomain: "example.co.uk",
      publicSuffix: "co.uk",
      subdomain: "blog",
      isIp: false,
      ipVersion: null,
      isIcannSuffix: true,
      isPrivateSuffix: false,
      address: "203.0.113.10",
      final: {
        url: "https://blog.example.co.uk/posts/1/",
        status: 200,
        redirects: ["https://blog.example.co.uk/posts/1/"],
        contentType: "text/html",
        bytes: 48213,
        server: "nginx",
        title: "First post",
      },
    },
  },
  cacheTtl: 600,
  async handler({ input, egress }) {
    const parts = describeUrl(input.url);
    const { address } = await egress.check(parts.url);
    return { ...parts, address, final: input.follow ? await followed(egress, parts.url) : null };
  },
});

async function followed(egress: Egress, url: string) {
  const response = await egress.fetch(url, { headers: { accept: "text/html,*/*;q=0.8" } });
  const type = mediaType(response.headers["content-type"]) ?? null;
  const title =
    type === "text/html"
      ? readMeta(decodeBody(response.body, response.headers["content-type"]), response.url).title
      : null;
  return {
    url: response.url,
    status: response.status,
    redirects: response.redirects,
    contentType: type,
    bytes: response.body.length,
    server: response.headers.server ?? null,
    title,
  };
}
