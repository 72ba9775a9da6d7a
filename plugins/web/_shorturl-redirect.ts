import type { PageDef } from "../../core/endpoint.ts";
import { escapeHtml } from "../../core/shared.ts";
import { shortUrlKey, type ShortUrlRecord } from "./_shorturls.ts";

/** `/s/<code>`: the redirect a short link made by `shorturl` stands for, free for whoever follows it. */
export const shortUrlRedirect: PageDef = {
  path: "/s/:code",
  title: "Short link",
  hidden: true,
  async body({ params, store, now }) {
    const record = /^[A-Za-z0-9]{7}$/.test(params.code ?? "")
      ? await store.get<ShortUrlRecord>(shortUrlKey(params.code))
      : undefined;
    if (record && Date.parse(record.expiresAt) > now().getTime()) return { redirect: record.url };
    return {
      status: 404,
      html: `<h1>No such link</h1><p class="muted">The short link <code>${escapeHtml(params.code ?? "")}</code> does not exist or has expired.</p>`,
    };
  },
};
