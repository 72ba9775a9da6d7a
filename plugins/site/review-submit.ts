import { randomUUID } from "node:crypto";
import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { tooManyRequests } from "../../core/runtime/errors.ts";
import { HOUR_MS, REVIEWS_PER_HOUR, holdForModeration } from "./_reviews.ts";

export default defineEndpoint({
  name: "site/review-submit",
  method: "POST",
  path: "/site/api/reviews",
  price: "$0",
  summary:
    "Submit a review of the service from the web site: held until an operator approves it, 5 per hour per visitor",
  input: v.object({
    rating: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5), v.description("Stars, 1 to 5")),
    text: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(1000),
      v.regex(/\S/, "must not be blank"),
      v.description("The review, plain text, up to 1000 characters"),
    ),
    name: v.optional(
      v.pipe(v.string(), v.maxLength(60), v.description("Your name as shown with the review; empty for anonymous")),
      "",
    ),
  }),
  output: v.object({
    id: v.pipe(v.string(), v.description("The review's id")),
    status: v.pipe(v.picklist(["pending"]), v.description("Held for moderation: shown once an operator approves it")),
    remainingThisHour: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.description("Submissions this visitor has left in the current hour"),
    ),
  }),
  example: {
    input: { rating: 5, text: "The try-it panel showed me exactly what my agent has to pay.", name: "Ada" },
    output: { id: "b3b8f5d9-bb79-4af8-b0a8-d3327ab29704", status: "pending", remainingThisHour: 4 },
  },
  async handler(ctx) {
    const { input, store, clientIp, now } = ctx;
    const at = now().getTime();
    // The hourly quota protects the service, so it counts every submission that gets this far.
    const hour = Math.floor(at / HOUR_MS);
    const used = await store.increment(`site:reviews:quota:${clientIp}:${hour}`, 1, HOUR_MS);
    if (used > REVIEWS_PER_HOUR) throw tooManyRequests(Math.ceil(((hour + 1) * HOUR_MS - at) / 1000));
    const id = randomUUID();
    const review = {
      id,
      rating: input.rating,
      name: input.name.trim(),
      text: input.text.trim(),
      createdAt: new Date(at).toISOString(),
    };
    ctx.afterPayment(() => holdForModeration(store, review));
    return { id, status: "pending" as const, remainingThisHour: REVIEWS_PER_HOUR - used };
  },
});
