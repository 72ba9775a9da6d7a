import type { PageContext, PageDef } from "../../core/endpoint.ts";
import { escapeHtml } from "../../core/shared.ts";
import { REVIEWS_PER_HOUR, approvedReviews, type Review } from "./_reviews.ts";

const SHOWN = 50;

const stars = (rating: number) =>
  `<span class="stars" aria-label="${rating} of 5 stars">${"★".repeat(rating)}${"☆".repeat(5 - rating)}</span>`;

const reviewItem = (r: Review) => `<li class="card review" data-id="${escapeHtml(r.id)}">
<p class="by">${stars(r.rating)} <strong>${escapeHtml(r.name || "Anonymous")}</strong> <time class="muted" datetime="${escapeHtml(r.createdAt)}">${escapeHtml(r.createdAt.slice(0, 10))}</time></p>
<p class="text">${escapeHtml(r.text)}</p>
</li>`;

async function renderReviews({ store }: PageContext): Promise<string> {
  const reviews = await approvedReviews(store, SHOWN);
  const average = reviews.length ? reviews.reduce((sum, r) => sum + r.rating, 0) / reviews.length : 0;
  return `<h1>Reviews</h1>
<p class="muted">What people say about the service. Every review is read by an operator before it appears here.</p>
<section class="card">
<h2>Write a review</h2>
<form id="review-form" class="review-form">
<label>Your name (optional) <input id="review-name" name="name" maxlength="60" autocomplete="nickname"></label>
<label>Rating <select id="review-rating" name="rating" required>${[5, 4, 3, 2, 1].map((n) => `<option value="${n}">${n} star${n > 1 ? "s" : ""}</option>`).join("")}</select></label>
<label class="wide">Review <textarea id="review-text" name="text" rows="5" maxlength="1000" required></textarea></label>
<p><button type="submit">Send for moderation</button> <span id="review-status" aria-live="polite"></span></p>
<p class="muted">Up to ${REVIEWS_PER_HOUR} reviews per visitor and hour. Plain text, up to 1000 characters; no account needed.</p>
</form>
</section>
<p id="review-summary">${reviews.length ? `${reviews.length} review${reviews.length > 1 ? "s" : ""}, ${average.toFixed(1)} stars on average.` : "No reviews yet."}</p>
<ol id="reviews" class="reviews">${reviews.map(reviewItem).join("\n")}</ol>`;
}

const head = `<style>
.review-form { display: flex; flex-wrap: wrap; gap: 12px 16px; align-items: end; }
.review-form .wide { flex-basis: 100%; }
.review-form textarea { width: 100%; display: block; }
.review-form p { margin: 0; }
.reviews { list-style: none; padding: 0; }
.review .by { margin: 0 0 6px; }
.review .text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.stars { color: #bf8700; letter-spacing: 1px; }
</style>
<script type="module" src="/site/reviews.js"></script>`;

export const reviewsPage: PageDef = { path: "/reviews", title: "Reviews", body: renderReviews, head };
