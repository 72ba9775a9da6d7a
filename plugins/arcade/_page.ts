import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type { AssetDef, PageDef } from "../../core/endpoint.ts";

const choiceButtons = (game: string, choices: [string, string][]) =>
  choices
    .map(([choice, label]) => `<button type="button" data-game="${game}" data-choice="${choice}">${label}</button>`)
    .join(" ");

const game = (id: string, title: string, rules: string, controls: string) =>
  `<section class="card game" id="game-${id}"><h2>${title}</h2><p class="muted">${rules}</p><p>${controls}</p><p class="outcome" id="out-${id}" aria-live="polite"></p></section>`;

const body = `
<h1>Arcade</h1>
<p class="muted">Six games for points, no money. Dice, blackjack and higher-lower draw from SHA-256(block hash + ":" + your salt), where the block is
the first one the payment network mines <em>after</em> your play is recorded: your browser picks the salt before that block exists, and nobody can pick
the block. Each blackjack card and the hidden coin come from a block mined after your move. You can check every draw against the chain here.
The three predictions are refereed by real market data. A win is 10 points, 20 from a streak of 3; the week resets Monday 00:00 UTC.
Each free play costs your browser a second of proof of work (ALTCHA, no third party). Free plays score on the boards; the weekly promo codes
go to the top 3 of paid plays (agents, through <code>POST /v1/arcade/play</code>).</p>

<section class="card" id="player">
  <form id="join" class="row">
    <label>Your name <input id="alias" name="alias" maxlength="32" required autocomplete="nickname"></label>
    <button type="submit">Play as this name</button>
    <span class="muted" id="who"></span>
  </form>
  <dl class="stats">
    <div><dt>Points</dt><dd id="points">0</dd></div>
    <div><dt>This week</dt><dd id="week-points">0</dd></div>
    <div><dt>Streak</dt><dd id="streak">0</dd></div>
    <div><dt>Best streak</dt><dd id="best-streak">0</dd></div>
    <div><dt>Wins</dt><dd id="wins">0</dd></div>
    <div><dt>Plays</dt><dd id="plays">0</dd></div>
  </dl>
  <altcha-widget id="pow" challenge="/arcade/api/challenge" auto="off" hidefooter></altcha-widget>
  <details><summary>Your key</summary><p class="muted">Your player id is SHA-256 of name|key. The key stays in this browser; copy it to play as the same player elsewhere.</p>
  <p><code id="secret"></code></p><p>Player id: <code id="player-id"></code></p></details>
</section>

<div class="games">
${game(
  "dice",
  "Dice",
  "Two dice. Over: 8-12, under: 2-6, seven: exactly 7.",
  choiceButtons("dice", [
    ["over", "Over"],
    ["under", "Under"],
    ["seven", "Seven"],
  ]),
)}
${game("blackjack", "Blackjack", "One deck; no hole card: the dealer draws its second card when you stand, and stands on soft 17. An open hand left 10 minutes counts as a loss.", `<button type="button" id="bj-deal">Deal</button> <button type="button" id="bj-hit" disabled>Hit</button> <button type="button" id="bj-stand" disabled>Stand</button>`)}
${game("higherlower", "Higher or lower", "A coin is shown; is the hidden coin's market cap higher or lower? The hidden coin is drawn from the block after your choice.", `<button type="button" id="hl-show">Show a coin</button> <button type="button" id="hl-higher" data-move="higher" disabled>Higher</button> <button type="button" id="hl-lower" data-move="lower" disabled>Lower</button>`)}
${game(
  "funding",
  "BTC funding",
  "Sign of the BTCUSDT perpetual funding print after next (00:00, 08:00, 16:00 UTC): a print takes no entries once its 8-hour window opens.",
  choiceButtons("funding", [
    ["positive", "Positive"],
    ["negative", "Negative"],
  ]),
)}
${game(
  "candle",
  "Next candle",
  "The BTC-USDT 1-minute candle that opens after your play: green or red? It settles when that candle closes.",
  choiceButtons("candle", [
    ["green", "Green"],
    ["red", "Red"],
  ]),
)}
${game(
  "feargreed",
  "Fear &amp; Greed",
  "Will tomorrow's Crypto Fear &amp; Greed Index be higher (greed) or lower (fear)?",
  choiceButtons("feargreed", [
    ["greed", "Greed"],
    ["fear", "Fear"],
  ]),
)}
</div>

<section class="card" id="last">
  <h2>Last result</h2>
  <p id="last-summary" class="muted">Play a game to see its result here.</p>
  <p><button type="button" id="verify" disabled>Verify fairness</button> <span id="verify-result" aria-live="polite"></span></p>
  <details><summary>Fairness record</summary><pre id="fairness"></pre></details>
  <details><summary>Check any fairness record</summary>
    <p class="muted">Paste a fairness record or a whole play result (an agent's too). The check recomputes every draw from the blocks' hashes and the salt,
    then asks the payment chain that each block has that number and hash and was mined after its stage was accepted. This page asks the chain through
    our relay; to ask a node of your own, run <code>npm run verify-play -- --rpc &lt;url&gt; '&lt;record&gt;'</code> from the source.</p>
    <p><label for="check-input">Record</label><br><textarea id="check-input" rows="6" cols="60"></textarea></p>
    <p><button type="button" id="check">Check</button> <span id="check-result" aria-live="polite"></span></p>
  </details>
</section>

<section class="card"><h2>Your plays</h2><table><thead><tr><th>When</th><th>Game</th><th>Choice</th><th>Status</th><th>Result</th><th>Points</th></tr></thead><tbody id="history"></tbody></table></section>

<section class="card"><h2>Leaderboard</h2>
  <div class="boards"><div><h3>This week</h3><ol id="board-week"></ol></div><div><h3>Last week's paid top 3</h3><ol id="board-last"></ol></div><div><h3>All time</h3><ol id="board-all"></ol></div></div>
</section>
<p class="muted">Fear &amp; Greed data: <a href="https://alternative.me/crypto/fear-and-greed-index/">alternative.me</a>. Market caps: CoinGecko.</p>
`;

const head = `<style>
.games { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 16px; }
.games .card { margin: 0; }
.stats { display: flex; gap: 24px; flex-wrap: wrap; margin: 12px 0; }
.stats dt { color: var(--muted); font-size: 13px; }
.stats dd { margin: 0; font-size: 22px; font-weight: 700; }
.row { display: flex; gap: 12px; align-items: end; flex-wrap: wrap; }
.boards { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 16px; }
textarea { width: 100%; font-family: ui-monospace, monospace; }
</style>
<link rel="stylesheet" href="/arcade/altcha.css">
<script type="module" src="/arcade/app.js"></script>`;

export const arcadePage: PageDef = { path: "/arcade", title: "Arcade", body, head };

/** The altcha widget's files (its CSP-friendly build, with the worker loaded from our own origin). */
const altchaDist = new URL("../", pathToFileURL(createRequire(import.meta.url).resolve("altcha/external")));
const altcha = (path: string) => new URL(path, altchaDist);

export const arcadeAssets: AssetDef[] = [
  { path: "/arcade/fair.js", type: "text/javascript", file: new URL("./_fair.js", import.meta.url) },
  { path: "/arcade/_blackjack.js", type: "text/javascript", file: new URL("./_blackjack.js", import.meta.url) },
  { path: "/arcade/app.js", type: "text/javascript", file: new URL("./_page.js", import.meta.url) },
  { path: "/arcade/altcha.js", type: "text/javascript", file: altcha("external/altcha.min.js") },
  { path: "/arcade/altcha.css", type: "text/css", file: altcha("external/altcha.css") },
  { path: "/arcade/altcha-pbkdf2.js", type: "text/javascript", file: altcha("workers/pbkdf2.js") },
];
