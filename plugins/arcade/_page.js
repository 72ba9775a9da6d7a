// The /arcade page: free play for humans, stats, history, leaderboard, and fairness checks in the browser.
import { sha256Hex, verifyFairness } from "/arcade/fair.js";

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const state = { alias: localStorage.getItem("arcade.alias") ?? "", secret: localStorage.getItem("arcade.secret") ?? "", id: "", last: null, handId: null };

const randomHex = (bytes) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
const text = (el, value) => void (el.textContent = value);

async function identify(alias) {
  if (!state.secret) {
    state.secret = randomHex(18);
    localStorage.setItem("arcade.secret", state.secret);
  }
  state.alias = alias;
  localStorage.setItem("arcade.alias", alias);
  state.id = await sha256Hex(`${alias}|${state.secret}`);
  text($("who"), `Playing as ${alias}`);
  text($("secret"), state.secret);
  text($("player-id"), state.id);
  await Promise.all([refreshMe(), refreshBoard()]);
}

async function api(path, init) {
  const res = await fetch(path, init);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(res.status === 429 ? `Slow down: try again in ${res.headers.get("retry-after")} s` : body?.error?.message ?? `HTTP ${res.status}`);
  return body.data;
}

async function play(fields) {
  if (!state.id) return void text($("last-summary"), "Choose a name first.");
  const out = $(`out-${fields.game}`);
  try {
    const result = await api("/arcade/api/play", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...fields, salt: randomHex(16), player: { alias: state.alias, secret: state.secret } }),
    });
    show(result);
    return result;
  } catch (error) {
    out.className = "outcome bad";
    text(out, String(error instanceof Error ? error.message : error));
  }
}

function describe(r) {
  const verdict = r.status === "pending" ? `pending until ${new Date(r.referee.settlesAt).toLocaleString()}` : r.inProgress ? "your move" : r.outcome;
  const points = r.pointsAwarded ? ` +${r.pointsAwarded} points` : "";
  if (r.game === "dice") return `Rolled ${r.dice.join(" + ")} = ${r.sum}: ${verdict}${points}`;
  if (r.game === "blackjack") {
    const dealer = r.inProgress ? `${r.dealerUpcard} ?` : `${r.dealerHand.join(" ")} (${r.dealerTotal})`;
    return `You ${r.hand.join(" ")} (${r.handTotal}) · dealer ${dealer}: ${verdict}${points}`;
  }
  if (r.game === "higherlower") return `${r.shown.name} $${fmt(r.shown.marketCapUsd)} vs hidden ${r.hidden.name} $${fmt(r.hidden.marketCapUsd)}: ${verdict}${points}`;
  return `${r.choice}: ${verdict}${r.referee.observed ? ` (${r.referee.observed})` : ""}${points}`;
}
const fmt = (n) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)}B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : String(n));

function show(r) {
  const out = $(`out-${r.game}`);
  out.className = `outcome ${r.outcome === "win" ? "good" : r.outcome === "loss" ? "bad" : ""}`;
  text(out, describe(r));
  text($("last-summary"), `${r.game}: ${describe(r)}`);
  if (r.game === "blackjack") {
    state.handId = r.inProgress ? r.playId : null;
    /** @type {HTMLButtonElement} */ ($("bj-hit")).disabled = !r.inProgress;
    /** @type {HTMLButtonElement} */ ($("bj-stand")).disabled = !r.inProgress;
  }
  if (r.fairness) {
    state.last = r.fairness;
    /** @type {HTMLButtonElement} */ ($("verify")).disabled = false;
    text($("verify-result"), "");
    text($("fairness"), JSON.stringify(r.fairness, null, 2));
  }
  renderPlayer(r.player);
  refreshMe();
  refreshBoard();
}

function renderPlayer(p) {
  text($("points"), p.points);
  text($("week-points"), p.weekPoints);
  text($("streak"), p.streak);
  text($("best-streak"), p.bestStreak);
  text($("wins"), p.wins);
  text($("plays"), p.plays);
}

async function refreshMe() {
  if (!state.id) return;
  const me = await api(`/v1/arcade/me?id=${state.id}`).catch(() => undefined);
  if (!me) return;
  renderPlayer(me.player);
  const rows = me.plays.map((r) => {
    const tr = document.createElement("tr");
    for (const cell of [new Date(r.playedAt).toLocaleTimeString(), r.game, r.choice ?? r.action, r.status, r.outcome ?? "", String(r.pointsAwarded)]) {
      const td = document.createElement("td");
      td.textContent = cell;
      tr.append(td);
    }
    return tr;
  });
  $("history").replaceChildren(...rows);
}

async function refreshBoard() {
  const boards = await api("/v1/arcade/leaderboard?limit=10").catch(() => undefined);
  if (!boards) return;
  const fill = (id, rows) =>
    $(id).replaceChildren(...rows.map((row) => {
      const li = document.createElement("li");
      li.textContent = `${row.alias} · ${row.points} points`;
      return li;
    }));
  fill("board-week", boards.week.players);
  fill("board-last", boards.lastWeek.players);
  fill("board-all", boards.allTime.players);
}

$("join").addEventListener("submit", (event) => {
  event.preventDefault();
  const alias = /** @type {HTMLInputElement} */ ($("alias")).value.trim();
  if (alias) identify(alias);
});
for (const button of document.querySelectorAll("button[data-game]")) {
  button.addEventListener("click", () => play({ game: button.getAttribute("data-game"), choice: button.getAttribute("data-choice") }));
}
$("bj-deal").addEventListener("click", () => play({ game: "blackjack", action: "deal" }));
$("bj-hit").addEventListener("click", () => play({ game: "blackjack", action: "hit", playId: state.handId }));
$("bj-stand").addEventListener("click", () => play({ game: "blackjack", action: "stand", playId: state.handId }));
$("verify").addEventListener("click", async () => {
  const check = await verifyFairness(state.last);
  const el = $("verify-result");
  el.className = check.ok ? "good" : "bad";
  text(el, check.ok ? `Verified: block ${state.last.blockNumber}'s hash and your salt give seed ${check.seedHex.slice(0, 16)}… and exactly these draws` : `Mismatch: ${check.problems.join("; ")}`);
});

if (state.alias) {
  /** @type {HTMLInputElement} */ ($("alias")).value = state.alias;
  identify(state.alias);
} else refreshBoard();
setInterval(refreshMe, 15_000);
