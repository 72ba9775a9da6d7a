import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { OPERATOR_TOKEN, ReviewId, exampleReview, isHeld, reject, requireOperator } from "./_reviews.ts";
import { siteSettings } from "./_settings.ts";

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
  settings: siteSettings,
  async handler(ctx) {
    const { input, store, headers, settings } = ctx;
    requireOperator(headers, settings.reviewsOperatorToken);
    if (!(await isHeld(store, input.id))) throw notFound(`No review ${input.id} is waiting for moderation`);
    ctx.afterPayment(() => reject(store, input.id));
    return { id: input.id, status: "rejected" as const };
  },
});
