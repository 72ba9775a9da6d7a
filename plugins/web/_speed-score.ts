import { loadHtml } from "../_shared/html-parsers.ts";

export interface ResourceCounts {
  scripts: number;
  inlineScripts: number;
  stylesheets: number;
  images: number;
  iframes: number;
  fonts: number;
  /** Files the page makes a browser fetch: scripts, stylesheets, images, iframes and preloaded fonts. */
  total: number;
}

export interface SpeedFacts {
  ttfbMs: number | null;
  totalMs: number;
  transferredBytes: number;
  htmlBytes: number;
  compression: string | null;
  cacheable: boolean;
  redirects: number;
  resources: ResourceCounts;
}

export interface Factor {
  name: string;
  passed: boolean;
  points: number;
  maxPoints: number;
  detail: string;
}

export function countResources(html: string): ResourceCounts {
  const $ = loadHtml(html);
  const scripts = $("script[src]").length;
  const inlineScripts = $("script:not([src])").filter((_, el) => !/json/i.test($(el).attr("type") ?? "")).length;
  const stylesheets = $('link[rel~="stylesheet" i]').length;
  const images = $("img[src], img[srcset], input[type=image]").length;
  const iframes = $("iframe[src]").length;
  const fonts = $('link[rel~="preload" i][as="font" i]').length;
  return {
    scripts,
    inlineScripts,
    stylesheets,
    images,
    iframes,
    fonts,
    total: scripts + stylesheets + images + iframes + fonts,
  };
}

/** Bands of a measurement: full points at or under the first limit, half at or under the second. */
function banded(name: string, value: number | null, limits: [number, number], maxPoints: number, unit: string): Factor {
  if (value === null) return { name, passed: false, points: 0, maxPoints, detail: "not measured" };
  const points = value <= limits[0] ? maxPoints : value <= limits[1] ? Math.round(maxPoints / 2) : 0;
  return {
    name,
    passed: points === maxPoints,
    points,
    maxPoints,
    detail: `${value} ${unit} (full points at ${limits[0]} or less, half at ${limits[1]} or less)`,
  };
}

/** A 0-100 score from what one fetch of the HTML shows; every factor is listed with its points. */
export function scoreSpeed(facts: SpeedFacts): { score: number; factors: Factor[] } {
  const smallBody = facts.htmlBytes < 1024;
  const factors: Factor[] = [
    banded("server response time", facts.ttfbMs, [200, 600], 20, "ms to the first byte"),
    banded("HTML download time", facts.totalMs, [500, 1500], 15, "ms for the whole HTML"),
    banded("HTML size", Math.round(facts.transferredBytes / 1024), [100, 500], 15, "KiB transferred"),
    {
      name: "compression",
      passed: facts.compression !== null || smallBody,
      points: facts.compression !== null || smallBody ? 15 : 0,
      maxPoints: 15,
      detail: facts.compression
        ? `sent with ${facts.compression}`
        : smallBody
          ? "body under 1 KiB, compression not needed"
          : "sent uncompressed",
    },
    {
      name: "caching headers",
      passed: facts.cacheable,
      points: facts.cacheable ? 10 : 0,
      maxPoints: 10,
      detail: facts.cacheable
        ? "cache lifetime or validator present"
        : "no cache lifetime and no validator (ETag, Last-Modified), or no-store",
    },
    banded("redirects", facts.redirects, [0, 1], 10, "redirects before the page"),
    banded("requests from the HTML", facts.resources.total, [30, 60], 15, "files referenced"),
  ];
  return { score: factors.reduce((sum, f) => sum + f.points, 0), factors };
}

export function isCacheable(headers: Record<string, string>): boolean {
  const control = (headers["cache-control"] ?? "").toLowerCase();
  if (/no-store/.test(control)) return false;
  const maxAge = /(?:s-maxage|max-age)\s*=\s*(\d+)/.exec(control);
  return (
    (maxAge !== null && Number(maxAge[1]) > 0) ||
    Boolean(headers.etag || headers["last-modified"]) ||
    (!control && Boolean(headers.expires))
  );
}
