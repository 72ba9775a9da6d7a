/** Where a code's target is kept; the `/s/<code>` redirect route reads it from here. */
export const shortUrlKey = (code: string) => `web:shorturl:${code}`;

export interface ShortUrlRecord {
  url: string;
  createdAt: string;
  expiresAt: string;
  payer: string | null;
}
