import type { AssetDef, PageDef } from "../../core/endpoint.ts";
import { escapeHtml } from "../../core/shared.ts";
import { chains, widgetTokens } from "./_chains.ts";
import { humanFee, humanMinimumInputUsd } from "./_human-fee.ts";

const chainOptions = Object.entries(chains)
  .map(([id, c]) => `<option value="${id}">${escapeHtml(c.name)}</option>`)
  .join("");
const select = (id: string, label: string, options: string) =>
  `<label>${label} <select id="${id}">${options}</select></label>`;

/** The human swap widget: the visitor's own EIP-1193 wallet signs; the page only quotes and hands over the transaction. */
export const swapPage: PageDef = {
  path: "/swap",
  title: "Swap",
  head: `<style>
#swap-form { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: 12px; align-items: end; }
#swap-form label { display: grid; gap: 4px; font-size: 13px; color: var(--muted); }
#race td.num, #race th.num { text-align: right; font-variant-numeric: tabular-nums; }
</style>
<script type="module" src="/swap/widget.js"></script>`,
  body: `<h1>Swap</h1>
<p class="muted">Races Relay, LI.FI, Across, deBridge and KyberSwap and shows the best route after fees. Your own wallet signs and sends; the service never holds funds.
Fee for people: ${humanFee.rateBps / 100}% with a $${humanFee.minimumUsd.toFixed(2)} minimum, swaps worth $${humanMinimumInputUsd} or more.</p>
<div class="card">
  <form id="swap-form">
    ${select("fromChain", "From chain", chainOptions)}
    ${select("fromToken", "From token", "")}
    <label>Amount <input id="amount" inputmode="decimal" placeholder="0.01" required></label>
    ${select("toChain", "To chain", chainOptions)}
    ${select("toToken", "To token", "")}
    <button type="button" id="connect">Connect wallet</button>
    <button type="submit" id="quote" disabled>Get quote</button>
  </form>
  <p id="account" class="muted"></p>
</div>
<div class="card" id="result" hidden>
  <h2>Race</h2>
  <table id="race"><thead><tr><th>#</th><th>Aggregator</th><th class="num">You get</th><th class="num">After extra fees</th><th class="num">Seconds</th></tr></thead><tbody></tbody></table>
  <p id="skipped" class="muted"></p>
  <h2>Winning route</h2>
  <p id="winner"></p>
  <ul id="fees" class="muted"></ul>
  <button type="button" id="send">Sign and send with my wallet</button>
  <p id="status"></p>
</div>
<p id="error" class="bad" role="alert"></p>
<script type="application/json" id="swap-tokens">${JSON.stringify(widgetTokens).replace(/</g, "\\u003c")}</script>`,
};

export const swapAssets: AssetDef[] = [
  { path: "/swap/widget.js", type: "text/javascript; charset=utf-8", file: new URL("./widget.js", import.meta.url) },
];
