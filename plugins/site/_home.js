// The catalog page: search and filter the server-rendered list, and "try it" on any route.
import { decodeBase64Json, requestFor } from "/site/request.js";

const $ = (id) => document.getElementById(id);
const rows = [...document.querySelectorAll("#catalog tbody tr")];
const pretty = (value) => JSON.stringify(value, null, 2);

function filter() {
  const terms = $("search").value.toLowerCase().split(/\s+/).filter(Boolean);
  const family = $("family").value;
  let shown = 0;
  for (const row of rows) {
    const hit = (!family || row.dataset.family === family) && terms.every((t) => row.dataset.search.includes(t));
    row.hidden = !hit;
    if (hit) shown++;
  }
  for (const section of document.querySelectorAll("section.family")) {
    const visible = section.querySelectorAll("tbody tr:not([hidden])").length;
    section.hidden = visible === 0;
    section.querySelector(".count").textContent = String(visible);
  }
  $("shown").textContent = `${shown} of ${rows.length} endpoints`;
  $("none").hidden = shown > 0;
  const query = new URLSearchParams();
  if (terms.length) query.set("q", $("search").value.trim());
  if (family) query.set("family", family);
  history.replaceState(null, "", query.size ? `?${query}` : location.pathname);
}

const initial = new URLSearchParams(location.search);
$("search").value = initial.get("q") ?? "";
$("family").value = initial.get("family") ?? "";
$("search").addEventListener("input", filter);
$("family").addEventListener("change", filter);
$("filters").addEventListener("submit", (e) => { e.preventDefault(); filter(); });
filter();

let current;
document.addEventListener("click", (e) => {
  const button = e.target.closest("button.try");
  if (button) openTry(button.dataset);
});

function openTry(endpoint) {
  current = endpoint;
  $("try-title").textContent = endpoint.name;
  $("try-route").textContent = `${endpoint.method} ${endpoint.path}`;
  $("try-price").textContent = endpoint.price === "free" ? "free" : `${endpoint.price} per call`;
  $("try-input").value = pretty(JSON.parse(endpoint.example));
  $("try-status").textContent = "";
  $("try-challenge").hidden = true;
  $("try-result").hidden = true;
  $("try").showModal();
}

function readInput() {
  try {
    const input = JSON.parse($("try-input").value || "{}");
    if (input && typeof input === "object" && !Array.isArray(input)) return input;
  } catch {}
  $("try-status").textContent = "The input must be a JSON object.";
  $("try-status").className = "bad";
}

function showAnswer(body, receipt) {
  $("try-result").hidden = false;
  $("try-answer").textContent = typeof body === "string" ? body : pretty(body);
  $("try-paid").hidden = !receipt;
  if (receipt) $("try-receipt").textContent = pretty(receipt);
}

/** One line a person can read from the first payment option. */
function describe(option) {
  if (!option) return "no payment option offered";
  return `${current.price}, that is ${option.amount} atomic units of ${option.extra?.name ?? "the token"} ${option.asset} on ${option.network}, paid to ${option.payTo}.`;
}

$("try-send").addEventListener("click", async () => {
  const input = readInput();
  if (!input) return;
  const { url, init } = requestFor(current, input, location.origin);
  $("try-status").className = "muted";
  $("try-status").textContent = `${init.method} ${new URL(url).pathname}${new URL(url).search} …`;
  $("try-challenge").hidden = true;
  $("try-result").hidden = true;
  const res = await fetch(url, init);
  const text = await res.text();
  let body = text;
  try { body = JSON.parse(text); } catch {}
  $("try-status").textContent = `HTTP ${res.status}`;
  $("try-status").className = res.status === 402 || res.ok ? "good" : "bad";
  if (res.status !== 402) return showAnswer(body);
  const header = res.headers.get("payment-required");
  const challenge = header ? decodeBase64Json(header) : undefined;
  $("try-v2").textContent = challenge ? pretty(challenge) : "(no PAYMENT-REQUIRED header)";
  $("try-v1").textContent = pretty(body);
  $("try-summary").textContent = describe(challenge?.accepts?.[0]);
  $("try-challenge").hidden = false;
});

$("try-pay")?.addEventListener("click", async () => {
  const input = readInput();
  if (!input) return;
  $("try-pay").disabled = true;
  $("try-status").className = "muted";
  $("try-status").textContent = "Paying with the dev payer…";
  try {
    const res = await fetch("/site/api/devnet-pay", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: current.name, input }) });
    const out = await res.json();
    if (!res.ok) return showAnswer(out);
    $("try-status").textContent = `Paid by ${out.data.payer}: HTTP ${out.data.status}`;
    $("try-status").className = out.data.status === 200 ? "good" : "bad";
    showAnswer(out.data.answer, out.data.receipt);
  } finally {
    $("try-pay").disabled = false;
  }
});
