// The reviews page: sends a review to the moderation queue and says what happened.
const $ = (id) => document.getElementById(id);

function say(text, good) {
  $("review-status").textContent = text;
  $("review-status").className = good ? "good" : "bad";
}

$("review-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const review = { rating: Number($("review-rating").value), text: $("review-text").value, name: $("review-name").value };
  const res = await fetch("/site/api/reviews", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(review) });
  const out = await res.json().catch(() => ({}));
  if (res.ok) {
    $("review-text").value = "";
    const left = out.data.remainingThisHour;
    return say(`Thank you: your review waits for an operator's approval. You can send ${left} more this hour.`, true);
  }
  if (res.status === 429) {
    const minutes = Math.ceil(Number(res.headers.get("retry-after") ?? 3600) / 60);
    return say(`You have sent the most reviews allowed in an hour; try again in ${minutes} minute${minutes > 1 ? "s" : ""}.`, false);
  }
  const issues = out.error?.details?.issues?.map((i) => `${i.field}: ${i.message}`).join("; ");
  say(issues || out.error?.message || `The review was refused (HTTP ${res.status}).`, false);
});
