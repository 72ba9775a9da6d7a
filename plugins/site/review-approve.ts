import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import {
  OPERATOR_TOKEN,
  Review,
  ReviewId,
  approve,
  exampleReview,
  heldOrApproved,
  requireOperator,
} from "./_reviews.ts";
import { siteSettings } from "./_settings.ts";

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
  settings: siteSettings,
  async handler(ctx) {
    const { input, store, headers, settings } = ctx;
    requireOperator(headers, settings.reviewsOperatorToken);
    const review = await heldOrApproved(store, input.id);
    if (!review) throw notFound(`No review ${input.id} is waiting for moderation`);
    ctx.afterPayment(() => approve(store, review));
    return { status: "approved" as const, review };
  },
});
