import { createHash, timingSafeEqual } from "node:crypto";
import * as v from "valibot";
import type { Store } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";

/** Submissions per visitor (IP address) and clock hour: the spec's limit. */
export const REVIEWS_PER_HOUR = 5;
export const HOUR_MS = 3_600_000;
/** A review nobody moderated is dropped after 30 days. */
const PENDING_TTL_MS = 30 * 24 * HOUR_MS;

export const OPERATOR_TOKEN = "REVIEWS_OPERATOR_TOKEN";

export const ReviewId = v.pipe(
  v.string(),
  v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
  v.description("The review's id (a UUID)"),
);

export const Review = v.object({
  id: ReviewId,
  rating: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5), v.description("Stars, 1 to 5")),
  name: v.pipe(v.string(), v.maxLength(60), v.description("The visitor's name as given; empty for anonymous")),
  text: v.pipe(
    v.string(),
    v.maxLength(1000),
    v.description("The review as written (plain text: escape it when showing it)"),
  ),
  createdAt: v.pipe(v.string(), v.isoTimestamp(), v.description("When it was submitted (ISO 8601 UTC)")),
});
export type Review = v.InferOutput<typeof Review>;

export const ReviewList = v.object({ reviews: v.array(Review) });

export const exampleReview: Review = {
  id: "b3b8f5d9-bb79-4af8-b0a8-d3327ab29704",
  rating: 5,
  name: "Ada",
  text: "The try-it panel showed me exactly what my agent has to pay.",
  createdAt: "2026-05-04T10:15:00.000Z",
};

const pendingKey = (id: string) => `site:reviews:pending:${id}`;
const approvedKey = (id: string) => `site:reviews:approved:${id}`;
/** Sorted set of approved ids, scored by submission time: newest first. */
const approvedByDate = "site:reviews:approved-by-date";

export async function holdForModeration(store: Store, review: Review): Promise<void> {
  await store.set(pendingKey(review.id), review, PENDING_TTL_MS);
}

export async function pendingReviews(store: Store, limit: number): Promise<Review[]> {
  const keys = await store.keys("site:reviews:pending:");
  const found = await Promise.all(keys.map((key) => store.get<Review>(key)));
  return found
    .filter((r): r is Review => r !== undefined)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .slice(0, limit);
}

/** A review waiting for moderation, or one already approved (approving it again changes nothing). */
export async function heldOrApproved(store: Store, id: string): Promise<Review | undefined> {
  return (await store.get<Review>(approvedKey(id))) ?? (await store.get<Review>(pendingKey(id)));
}

export const isHeld = async (store: Store, id: string) => (await store.get(pendingKey(id))) !== undefined;

/**
 * Publishes a held review. The approval's claim lists it once, so a second approval (another operator, a retry)
 * changes nothing; a listing that fails gives the claim back, so the retry lists it.
 */
export async function approve(store: Store, review: Review): Promise<void> {
  if (await store.claim(approvedKey(review.id), review)) {
    await store.rank(approvedByDate, review.id, Date.parse(review.createdAt)).catch(async (error) => {
      await store.delete(approvedKey(review.id)).catch(() => undefined);
      throw error;
    });
  }
  await store.delete(pendingKey(review.id));
}

export async function reject(store: Store, id: string): Promise<void> {
  await store.delete(pendingKey(id));
}

export async function approvedReviews(store: Store, limit: number): Promise<Review[]> {
  const ids = await store.top(approvedByDate, limit);
  const found = await Promise.all(ids.map(({ member }) => store.get<Review>(approvedKey(member))));
  return found.filter((r): r is Review => r !== undefined);
}

/** Operator routes take `authorization: Bearer <REVIEWS_OPERATOR_TOKEN>`; compared in constant time. */
export function requireOperator(headers: Headers, expected: string | undefined): void {
  const given = /^Bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "")?.[1]?.trim();
  const digest = (s: string) => createHash("sha256").update(s).digest();
  if (!expected || !given || !timingSafeEqual(digest(given), digest(expected))) {
    throw new ServiceError(
      401,
      "unauthorized",
      "This operator route needs authorization: Bearer <REVIEWS_OPERATOR_TOKEN>",
      undefined,
      { "www-authenticate": "Bearer" },
    );
  }
}
