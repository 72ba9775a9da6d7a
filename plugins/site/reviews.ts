import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { ReviewList, approvedReviews, exampleReview } from "./_reviews.ts";

export default defineEndpoint({
  name: "site/reviews",
  method: "GET",
  path: "/site/api/reviews",
  price: "$0",
  summary: "The approved reviews of the service, newest first",
  input: v.object({
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Reviews at most")),
      50,
    ),
  }),
  output: ReviewList,
  example: { input: { limit: 10 }, output: { reviews: [exampleReview] } },
  async handler({ input, store }) {
    return { reviews: await approvedReviews(store, input.limit) };
  },
});
