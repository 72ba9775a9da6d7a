import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";

const o = v.optional;
/** What the code reads of an oEmbed video answer (section 2.3.4: `type` is "video" and `html` is required). */
const OEmbed = v.object({
  type: v.literal("video"),
  html: v.string(),
  title: o(v.string()),
  author_name: o(v.string()),
  author_url: o(v.string()),
  thumbnail_url: o(v.string()),
  thumbnail_width: o(v.number()),
  thumbnail_height: o(v.number()),
});

const videoId = /^[A-Za-z0-9_-]{11}$/;
const youtubeHosts = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtu.be",
  "www.youtube-nocookie.com",
]);

export default defineEndpoint({
  name: "yt-info",
  method: "GET",
  price: "$0.005",
  summary: "Title, channel and thumbnail of a YouTube video from its URL or id",
  description:
    "Uses YouTube's keyless oEmbed endpoint, so views, duration and dates are not included. Accepts watch, youtu.be, shorts, embed and live " +
    "URLs or a bare 11-character id. Unknown or deleted videos answer 404; private ones, which oEmbed refuses with 401, answer 502.",
  input: v.object({
    url: v.pipe(
      v.string(),
      v.minLength(11),
      v.maxLength(500),
      v.description("YouTube video URL, or its 11-character id"),
    ),
  }),
  output: v.object({
    videoId: v.string(),
    url: v.pipe(v.string(), v.description("Canonical watch URL")),
    title: v.string(),
    author: v.string(),
    authorUrl: v.nullable(v.string()),
    thumbnailUrl: v.nullable(v.string()),
    thumbnailWidth: v.nullable(v.number()),
    thumbnailHeight: v.nullable(v.number()),
    embedHtml: v.nullable(v.string()),
  }),
  example: {
    input: { url: "https://youtu.be/dQw4w9WgXcQ" },
    output: {
      videoId: "dQw4w9WgXcQ",
      url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      title: "Rick Astley - Never Gonna Give You Up (Official Video) (4K Remaster)",
      author: "Rick Astley",
      authorUrl: "https://www.youtube.com/@RickAstleyYT",
      thumbnailUrl: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg",
      thumbnailWidth: 480,
      thumbnailHeight: 360,
      embedHtml:
        '<iframe width="200" height="113" src="https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen title="Rick Astley - Never Gonna Give You Up (Official Video) (4K Remaster)"></iframe>',
    },
  },
  cacheTtl: 6 * 3600,
  upstreams: ["youtube-oembed"],
  async handler({ input, upstream }) {
    const id = videoIdOf(input.url);
    if (!id) {
      const message = "not a YouTube video URL or id";
      throw fieldError("url", message);
    }
    const watchUrl = `https://www.youtube.com/watch?v=${id}`;
    const info = await upstream("youtube-oembed").json("/oembed", OEmbed, {
      query: { url: watchUrl, format: "json" },
      notFoundAs404: true,
    });
    return {
      videoId: id,
      url: watchUrl,
      title: info.title ?? "",
      author: info.author_name ?? "",
      authorUrl: info.author_url ?? null,
      thumbnailUrl: info.thumbnail_url ?? null,
      thumbnailWidth: info.thumbnail_width ?? null,
      thumbnailHeight: info.thumbnail_height ?? null,
      embedHtml: info.html,
    };
  },
});

/** The video id of a watch, youtu.be, shorts, embed or live URL, or of a bare id. */
function videoIdOf(raw: string): string | undefined {
  const text = raw.trim();
  if (videoId.test(text)) return text;
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return undefined;
  }
  if (!youtubeHosts.has(url.hostname.toLowerCase())) return undefined;
  const candidate = url.hostname.endsWith("youtu.be")
    ? url.pathname.split("/")[1]
    : (url.searchParams.get("v") ?? /^\/(?:shorts|embed|live|v)\/([^/?#]+)/.exec(url.pathname)?.[1]);
  return candidate && videoId.test(candidate) ? candidate : undefined;
}
