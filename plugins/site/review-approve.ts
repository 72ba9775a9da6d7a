import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { OPERATOR_TOKEN, Review, ReviewId, approve, exampleReview, requireOperator } from "./_reviews.ts";

export default defineEndpoint({
  name: "site/review-approve",
  method: "POST",
  path: "/site/api/reviews/approve",
  price: "$0",
  summary: "Operator only (authorization: Bearer REVIEWS_OPERATOR_TOKEN): publish a held review",
  input: v.object({ id: ReviewId }),
  output: v.object({ status: v.picklist(["approved"]), review: Review }),
  example: { input: { id: exampleReview.id }, output: { status: "approved", review: exampleReview } },
  requires: [OPERATOR_TOKEN],
  async handler({ input, store, headers }) {
    requireOperator(headers);
    const review = await approve(store, input.id);
    if (!review) throw notFound(`No review ${input.id} is waiting for moderation`);
    return { status: "approved" as const, review };
  },
});
