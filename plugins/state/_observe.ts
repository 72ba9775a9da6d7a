import { createHash } from "node:crypto";
import { loadHtml } from "../_shared/html-parsers.ts";
import type { Egress } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { htmlToText, tidyText } from "../_shared/html-text.ts";
import { decodeBody, htmlAccept, mediaType, targetFailed } from "../_shared/page-fetch.ts";
import { excerptOf } from "./_signing.ts";

export const watchModes = ["text", "hash", "status"] as const;
export type WatchMode = (typeof watchModes)[number];

/** What one check saw; two checks differ when their fingerprints do. */
export interface Observation {
  status: number;
  fingerprint: string;
  excerpt: string;
  observedAt: string;
}

export interface WatchTarget {
  url: string;
  mode: WatchMode;
  selector: string | null;
}

/** Refuses a CSS selector cheerio cannot parse, before anything is fetched. */
export function checkSelector(selector: string | undefined): void {
  if (!selector) return;
  try {
    loadHtml("<p></p>")(selector);
  } catch (error) {
    throw badRequest(`selector is not a valid CSS selector: ${(error as Error).message}`, {
      issues: [{ field: "selector", message: "not a valid CSS selector" }],
    });
  }
}

/**
 * Fetches the watched URL through the egress guard and reduces it to a fingerprint: the status code
 * (`status`), the SHA-256 of the raw body or of the selected elements' HTML (`hash`), or of the visible text
 * (`text`). In `hash` and `text` modes only a 2xx answer is compared; anything else throws (a check error).
 */
export async function observe(egress: Egress, target: WatchTarget, at: Date): Promise<Observation> {
  const res = await egress.fetch(target.url, { headers: { accept: htmlAccept } });
  const observedAt = at.toISOString();
  if (target.mode === "status")
    return { status: res.status, fingerprint: `status:${res.status}`, excerpt: `HTTP ${res.status}`, observedAt };
  if (res.status < 200 || res.status >= 300) throw targetFailed(res);
  const body = decodeBody(res.body, res.headers["content-type"]);
  const html = isHtml(res.headers["content-type"]);
  let content: string | Buffer;
  let text: string;
  if (target.selector) {
    const $ = loadHtml(body);
    const picked = $(target.selector);
    text = tidyText(
      picked
        .map((_, el) => $(el).text())
        .get()
        .join("\n"),
    );
    content =
      target.mode === "hash"
        ? picked
            .map((_, el) => $.html(el))
            .get()
            .join("\n")
        : text;
  } else {
    text = html ? htmlToText(body) : tidyText(body);
    content = target.mode === "hash" ? res.body : text;
  }
  return {
    status: res.status,
    fingerprint: createHash("sha256").update(content).digest("hex"),
    excerpt: excerptOf(text),
    observedAt,
  };
}

function isHtml(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return !type || type === "text/html" || type === "application/xhtml+xml";
}
