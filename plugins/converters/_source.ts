import * as v from "valibot";
import type { Egress } from "../../core/endpoint.ts";
import { fetchTarget } from "../_shared/page-fetch.ts";

/** The `url` alternative to inline content, fetched through the egress guard (public http(s) only, capped). */
export const urlParam = (what: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.url(),
      v.maxLength(2048),
      v.description(`Public http(s) URL of the ${what}, instead of inline content`),
    ),
  );

export type Source = { inline: string } | { fetched: Buffer; contentType?: string };

/** The inline content or the bytes at `url` (the endpoint's `oneOf` makes it exactly one); a target that does not answer 2xx is a 502, never charged. */
export async function contentOrUrl(
  egress: Egress,
  inline: string | undefined,
  url: string | undefined,
): Promise<Source> {
  if (inline !== undefined || url === undefined) return { inline: inline ?? "" };
  const res = await fetchTarget(egress, url);
  return { fetched: res.body, contentType: res.headers["content-type"] };
}
