// `npm run reviews -- list | approve <id> | reject <id>`: moderates the site's reviews through the operator
// routes of a running service (BASE_URL, default http://localhost:4021) with REVIEWS_OPERATOR_TOKEN.
import type { Review } from "../plugins/site/_reviews.ts";
import { readToolEnv } from "../core/runtime/config.ts";

const [command, id] = process.argv.slice(2);
const { baseUrl, reviewsOperatorToken: token } = readToolEnv();

function usage(message: string): never {
  console.error(
    `${message}\nusage: npm run reviews -- list | approve <id> | reject <id>   (needs REVIEWS_OPERATOR_TOKEN; BASE_URL defaults to ${baseUrl})`,
  );
  process.exit(2);
}

async function call(path: string, body?: unknown): Promise<any> {
  const res = await fetch(baseUrl + path, {
    method: body ? "POST" : "GET",
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const out = await res.json().catch(() => null);
  if (!res.ok) {
    const reason =
      res.status === 404 && !out?.error?.message?.startsWith("No review")
        ? "not found: is REVIEWS_OPERATOR_TOKEN set on the service?"
        : out?.error?.message;
    console.error(`HTTP ${res.status}: ${reason ?? "no answer"}`);
    process.exit(1);
  }
  return out.data;
}

const show = (r: Review) =>
  `${r.id}  ${"★".repeat(r.rating)}${"☆".repeat(5 - r.rating)}  ${r.createdAt}  ${r.name || "Anonymous"}\n    ${r.text.replace(/\s+/g, " ")}`;

if (!token) usage("REVIEWS_OPERATOR_TOKEN is not set.");
if (command === "list") {
  const { reviews } = await call("/site/api/reviews/pending");
  console.log(reviews.length ? reviews.map(show).join("\n") : "No review is waiting for moderation.");
} else if (command === "approve" || command === "reject") {
  if (!id) usage(`${command} needs a review id (npm run reviews -- list shows them).`);
  const out = await call(`/site/api/reviews/${command}`, { id });
  console.log(`${command === "approve" ? "Approved" : "Rejected"} ${id}${out.review ? `: ${show(out.review)}` : ""}`);
} else {
  usage(command ? `Unknown command ${command}.` : "No command given.");
}
