import type { Egress, TargetResponse } from "../../core/endpoint.ts";
import { badRequest, ServiceError } from "../../core/runtime/errors.ts";

export const htmlAccept = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
const htmlTypes = new Set(["text/html", "application/xhtml+xml"]);

export interface FetchedPage {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  html: string;
  redirects: string[];
}

/** A caller's target that answered with an error status: 502, so the call is not charged. */
export function targetFailed(res: TargetResponse): ServiceError {
  return new ServiceError(502, "target_error", `the target answered HTTP ${res.status}`, {
    url: res.url,
    status: res.status,
  });
}

/** Fetches a caller's URL through the egress guard; anything but a 2xx answer is a target failure. */
export async function fetchTarget(
  egress: Egress,
  url: string,
  headers: Record<string, string> = {},
): Promise<TargetResponse> {
  const res = await egress.fetch(url, { headers });
  if (res.status < 200 || res.status >= 300) throw targetFailed(res);
  return res;
}

/** Fetches an HTML page; a non-HTML answer is the caller's mistake (400), not a target failure. */
export async function fetchHtml(egress: Egress, url: string): Promise<FetchedPage> {
  const res = await fetchTarget(egress, url, { accept: htmlAccept });
  const type = mediaType(res.headers["content-type"]);
  if (type && !htmlTypes.has(type))
    throw badRequest(`the target is not an HTML page (content-type ${type})`, { url: res.url });
  if (looksBinary(res.body))
    throw badRequest("the target's body is not text (binary, or compressed without saying so)", { url: res.url });
  return {
    url: res.url,
    status: res.status,
    headers: res.headers,
    html: decodeBody(res.body, res.headers["content-type"]),
    redirects: res.redirects,
  };
}

/** Text never holds a NUL byte; images, archives and compressed streams soon do (gzip starts with 1f 8b). */
export function looksBinary(body: Buffer): boolean {
  const head = body.subarray(0, 8192);
  return head.includes(0) || (head[0] === 0x1f && head[1] === 0x8b);
}

export function mediaType(contentType: string | undefined): string | undefined {
  const type = contentType?.split(";")[0].trim().toLowerCase();
  return type || undefined;
}

/** Decodes a body in the charset its header or its first bytes declare, UTF-8 when none is known. */
export function decodeBody(body: Buffer, contentType?: string): string {
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1] ?? sniffCharset(body);
  try {
    return new TextDecoder(declared ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function sniffCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString("latin1");
  return (
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
    /<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(head)?.[1]
  );
}
