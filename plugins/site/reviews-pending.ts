import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { OPERATOR_TOKEN, ReviewList, exampleReview, pendingReviews, requireOperator } from "./_reviews.ts";
import { siteSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "site/reviews-pending",
  method: "GET",
  path: "/site/api/reviews/pending",
  price: "$0",
  summary:
    "Operator only (authorization: Bearer REVIEWS_OPERATOR_TOKEN): the reviews waiting for moderation, oldest first",
  input: v.object({
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description("Reviews at most")),
      100,
    ),
  }),
  output: ReviewList,
  example: { input: {}, output: { reviews: [exampleReview] } },
  requires: [OPERATOR_TOKEN],
  settings: siteSettings,
  async handler({ input, store, headers, settings }) {
    requireOperator(headers, settings.reviewsOperatorToken);
    return { reviews: await pendingReviews(store, input.limit) };
  },
});
