// The /arcade page: free play for humans (one proof of work a play), stats, history, leaderboard, and fairness checks in the browser.
import "/arcade/altcha.js";
import { jsonRpcChain, sha256Hex, verifyFairness, verifyOnChain } from "/arcade/fair.js";

// The external altcha build loads its worker from our origin (the page's CSP allows no blob: workers).
globalThis.$altcha.algorithms.set("PBKDF2/SHA-256", () => new Worker("/arcade/altcha-pbkdf2.js"));

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));
const state = { alias: localStorage.getItem("arcade.alias") ?? "", secret: localStorage.getItem("arcade.secret") ?? "", id: "", last: null, handId: null, coinId: null };

const randomHex = (bytes) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
const text = (el, value) => void (el.textContent = value);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

const post = (path, body) => api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** One solved proof of work from the altcha widget, for one free play. */
async function proofOfWork() {
  const widget = $("pow");
  widget.reset();
  const solved = await widget.verify();
  if (!solved?.payload) throw new Error("The proof of work did not finish; try again");
  return solved.payload;
}

async function run(game, work) {
  if (!state.id) return void text($("last-summary"), "Choose a name first.");
  const out = $(`out-${game}`);
  try {
    show(await work());
  } catch (error) {
    out.className = "outcome bad";
    text(out, String(error instanceof Error ? error.message : error));
  }
}

const player = () => ({ alias: state.alias, secret: state.secret });
const play = (fields) => run(fields.game, async () => {
  text($(`out-${fields.game}`), "Proof of work…");
  const altcha = await proofOfWork();
  return post("/arcade/api/play", { ...fields, salt: randomHex(16), player: player(), altcha });
});
const move = (game, playId, name) => run(game, () => post("/v1/arcade/move", { playId, move: name, player: player() }));

function describe(r) {
  const points = r.pointsAwarded ? ` +${r.pointsAwarded} points` : "";
  if (r.status === "void") return `void: ${r.void.reason}; ${r.void.refund}`;
  if (r.status === "pending" && r.awaiting?.what === "block") return `waiting for block ${r.awaiting.decidingBlock ?? "(next)"}…`;
  if (r.status === "pending") return `${r.choice}: pending until ${new Date(r.referee.settlesAt).toLocaleString()}`;
  const verdict = r.status === "in_progress" ? "your move" : r.outcome;
  if (r.game === "dice") return `Rolled ${r.dice.join(" + ")} = ${r.sum}: ${verdict}${points}`;
  if (r.game === "blackjack") {
    const dealer = r.inProgress ? `${r.dealerUpcard} ?` : `${r.dealerHand.join(" ")} (${r.dealerTotal})`;
    return `You ${r.hand.join(" ")} (${r.handTotal}) · dealer ${dealer}: ${verdict}${points}`;
  }
  if (r.game === "higherlower") {
    const shown = `${r.shown.name} $${fmt(r.shown.marketCapUsd)}`;
    return r.hidden ? `${shown} vs hidden ${r.hidden.name} $${fmt(r.hidden.marketCapUsd)}: ${verdict}${points}` : `${shown}: higher or lower?`;
  }
  return `${r.choice}: ${verdict}${r.referee?.observed ? ` (${r.referee.observed})` : ""}${points}`;
}
const fmt = (n) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)}B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : String(n));

function show(r) {
  const out = $(`out-${r.game}`);
  out.className = `outcome ${r.outcome === "win" ? "good" : r.outcome === "loss" ? "bad" : ""}`;
  text(out, describe(r));
  text($("last-summary"), `${r.game}: ${describe(r)}`);
  const waiting = r.status === "pending" || r.status === "in_progress";
  if (r.game === "blackjack") {
    state.handId = waiting ? r.playId : null;
    $("bj-hit").disabled = $("bj-stand").disabled = r.status !== "in_progress";
    $("bj-deal").disabled = waiting;
  }
  if (r.game === "higherlower") {
    state.coinId = r.status === "in_progress" ? r.playId : null;
    $("hl-higher").disabled = $("hl-lower").disabled = r.status !== "in_progress";
    $("hl-show").disabled = waiting;
  }
  if (r.fairness && r.status === "settled") {
    state.last = r.fairness;
    $("verify").disabled = false;
    text($("verify-result"), "");
    text($("fairness"), JSON.stringify(r.fairness, null, 2));
  }
  renderPlayer(r.player);
  refreshMe();
  refreshBoard();
  if (r.status === "pending" && r.awaiting?.what === "block") follow(r.playId);
}

/** Reads the play again until its block has drawn it. */
const following = new Set();
async function follow(playId) {
  if (following.has(playId)) return;
  following.add(playId);
  try {
    for (let i = 0; i < 600; i++) {
      await sleep(1000);
      const me = await api(`/v1/arcade/me?id=${state.id}`).catch(() => undefined);
      const found = me?.plays.find((p) => p.playId === playId);
      if (found && !(found.status === "pending" && found.awaiting?.what === "block")) return show(found);
      if (found) text($(`out-${found.game}`), describe(found));
    }
  } finally {
    following.delete(playId);
  }
}

function renderPlayer(p) {
  text($("points"), p.points);
  text($("week-points"), p.weekPoints);
  text($("streak"), p.streak);
  text($("best-streak"), p.bestStreak);
  text($("wins"), p.wins);
  text($("plays"), p.plays);
}

let history = [];
function renderHistory() {
  const rows = history.map((r) => {
    const tr = document.createElement("tr");
    for (const cell of [new Date(r.playedAt).toLocaleTimeString(), r.game, r.choice ?? "", r.status, r.outcome ?? "", String(r.pointsAwarded)]) {
      const td = document.createElement("td");
      td.textContent = cell;
      tr.append(td);
    }
    return tr;
  });
  $("history").replaceChildren(...rows);
}

async function refreshMe() {
  if (!state.id) return;
  const me = await api(`/v1/arcade/me?id=${state.id}`).catch(() => undefined);
  if (!me) return;
  renderPlayer(me.player);
  history = me.plays;
  renderHistory();
  for (const r of me.plays) if (r.status === "pending" && r.awaiting?.what === "block") follow(r.playId);
}

async function refreshBoard() {
  const boards = await api("/v1/arcade/leaderboard?limit=10").catch(() => undefined);
  if (!boards) return;
  const fill = (id, rows) =>
    $(id).replaceChildren(...rows.map((row) => {
      const li = document.createElement("li");
      li.value = row.rank;
      li.textContent = `${row.alias} · ${row.points} points`;
      return li;
    }));
  fill("board-week", boards.week.players);
  fill("board-last", boards.lastWeek.players);
  fill("board-all", boards.allTime.players);
}

/** The draws recomputed here, and each block asked of the payment chain (through our relay). */
async function check(record) {
  const [draws, chain] = await Promise.all([verifyFairness(record), verifyOnChain(record, jsonRpcChain("/arcade/api/chain"))]);
  const problems = [...draws.problems, ...chain.problems];
  const blocks = (record.stages ?? []).map((s) => s.blockNumber).join(", ");
  return problems.length ? { ok: false, text: `Mismatch: ${problems.join("; ")}` } : { ok: true, text: `Verified: block ${blocks} of ${record.network} and your salt give exactly these draws, and each block was mined after its stage was accepted` };
}

async function showCheck(record, el) {
  text(el, "Checking…");
  const result = await check(record).catch((error) => ({ ok: false, text: `Could not check: ${error instanceof Error ? error.message : error}` }));
  el.className = result.ok ? "good" : "bad";
  text(el, result.text);
}

$("join").addEventListener("submit", (event) => {
  event.preventDefault();
  const alias = $("alias").value.trim();
  if (alias) identify(alias);
});
for (const button of document.querySelectorAll("button[data-game]")) {
  button.addEventListener("click", () => play({ game: button.getAttribute("data-game"), choice: button.getAttribute("data-choice") }));
}
$("bj-deal").addEventListener("click", () => play({ game: "blackjack", action: "deal" }));
$("bj-hit").addEventListener("click", () => move("blackjack", state.handId, "hit"));
$("bj-stand").addEventListener("click", () => move("blackjack", state.handId, "stand"));
$("hl-show").addEventListener("click", () => play({ game: "higherlower" }));
for (const id of ["hl-higher", "hl-lower"]) $(id).addEventListener("click", () => move("higherlower", state.coinId, $(id).getAttribute("data-move")));
$("verify").addEventListener("click", () => showCheck(state.last, $("verify-result")));
$("check").addEventListener("click", () => {
  let parsed;
  try {
    parsed = JSON.parse($("check-input").value);
  } catch {
    return void text($("check-result"), "Mismatch: that is not JSON");
  }
  showCheck(parsed?.data?.fairness ?? parsed?.fairness ?? parsed, $("check-result"));
});

if (state.alias) {
  $("alias").value = state.alias;
  identify(state.alias);
} else refreshBoard();
setInterval(refreshMe, 15_000);
