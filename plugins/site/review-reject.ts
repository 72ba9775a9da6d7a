import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { OPERATOR_TOKEN, ReviewId, exampleReview, reject, requireOperator } from "./_reviews.ts";

export default defineEndpoint({
  name: "site/review-reject",
  method: "POST",
  path: "/site/api/reviews/reject",
  price: "$0",
  summary: "Operator only (authorization: Bearer REVIEWS_OPERATOR_TOKEN): drop a held review without publishing it",
  input: v.object({ id: ReviewId }),
  output: v.object({ id: v.string(), status: v.picklist(["rejected"]) }),
  example: { input: { id: exampleReview.id }, output: { id: exampleReview.id, status: "rejected" } },
  requires: [OPERATOR_TOKEN],
  async handler({ input, store, headers }) {
    requireOperator(headers);
    if (!(await reject(store, input.id))) throw notFound(`No review ${input.id} is waiting for moderation`);
    return { id: input.id, status: "rejected" as const };
  },
});
