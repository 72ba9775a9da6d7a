import type { Endpoint, PageContext, PageDef } from "../../core/endpoint.ts";
import { isFree, escapeHtml, agentEndpoints } from "../../core/shared.ts";

/** The pages' own routes (reviews, the devnet payer, the free play) serve pages; the catalog lists what agents call. */
const listed = (endpoints: readonly Endpoint[]) =>
  agentEndpoints(endpoints).sort((a, b) => a.family.localeCompare(b.family) || a.name.localeCompare(b.name));

/** Swagger UI's deep link to an operation, `#/<tag>/<operationId>`; it splits on "/", so `bet/odds` links to its tag. */
const docsLink = (e: Endpoint) =>
  `/docs#/${encodeURIComponent(e.family)}${e.name.includes("/") ? "" : `/${encodeURIComponent(e.name)}`}`;

function row(e: Endpoint): string {
  const searchable = [e.name, e.family, e.path, e.summary, e.description ?? ""].join(" ").toLowerCase();
  const price = isFree(e) ? "free" : e.price;
  return `<tr data-family="${escapeHtml(e.family)}" data-search="${escapeHtml(searchable)}">
<td><code>${escapeHtml(e.name)}</code></td>
<td><span class="method">${e.method}</span> <code>${escapeHtml(e.path)}</code></td>
<td class="price">${escapeHtml(price)}</td>
<td>${escapeHtml(e.summary)}</td>
<td class="actions"><a href="${escapeHtml(docsLink(e))}">Docs</a>
<button type="button" class="try" data-name="${escapeHtml(e.name)}" data-method="${e.method}" data-path="${escapeHtml(e.path)}" data-price="${escapeHtml(price)}" data-example="${escapeHtml(JSON.stringify(e.example.input))}">Try it</button></td>
</tr>`;
}

function familySection(family: string, endpoints: Endpoint[]): string {
  return `<section class="card family" data-family="${escapeHtml(family)}">
<h2>${escapeHtml(family)} <span class="muted count">${endpoints.length}</span></h2>
<table><thead><tr><th>Name</th><th>Route</th><th>Price</th><th>What it does</th><th></th></tr></thead>
<tbody>${endpoints.map(row).join("")}</tbody></table>
</section>`;
}

const tryDialog = (devnet: boolean) => `<dialog id="try" aria-labelledby="try-title">
<form method="dialog" class="close"><button aria-label="Close">×</button></form>
<h2 id="try-title"></h2>
<p><code id="try-route"></code> · <span id="try-price"></span></p>
<label for="try-input">Input (JSON: the query parameters of a GET, the body of a POST)</label>
<textarea id="try-input" rows="6" spellcheck="false"></textarea>
<p><button type="button" id="try-send">Send unpaid</button> <span id="try-status" aria-live="polite"></span></p>
<div id="try-challenge" hidden>
  <p>The route answered <strong>402 Payment Required</strong>: <span id="try-summary"></span></p>
  <h3>PAYMENT-REQUIRED header (x402 v2), decoded</h3><pre id="try-v2"></pre>
  <h3>Body (x402 v1)</h3><pre id="try-v1"></pre>
  ${devnet ? `<p><button type="button" id="try-pay">Pay with the dev payer</button> <span class="muted">Devnet only: test USDC, no real money.</span></p>` : ""}
</div>
<div id="try-result" hidden><h3>Answer</h3><pre id="try-answer"></pre><div id="try-paid" hidden><h3>Receipt (PAYMENT-RESPONSE, decoded)</h3><pre id="try-receipt"></pre></div></div>
</dialog>`;

function renderHome({ endpoints }: PageContext): string {
  const shown = listed(endpoints);
  const families = [...new Set(shown.map((e) => e.family))];
  const devnet = endpoints.some((e) => e.name === "site/devnet-pay");
  const has = (family: string) => endpoints.some((e) => e.family === family);
  const human = [
    has("arcade") && `play the <a href="/arcade">arcade</a> free`,
    has("swap") && `swap with the <a href="/swap">swap widget</a>`,
    `<a href="/reviews">review the service</a>`,
  ].filter(Boolean);
  const options = families.map((f) => `<option value="${escapeHtml(f)}">${escapeHtml(f)}</option>`).join("");
  return `<h1>Catalog</h1>
<p class="lead">${shown.length} endpoints in ${families.length} families for AI agents, each paid per call in USDC over x402: no account, no key.
Call a route, answer its <code>402</code> with a signed payment, get the data. Bad input is refused for free before any payment, and failures are never charged.
People can ${human.join(", ").replace(/, ([^,]*)$/, " and $1")}.</p>
${devnet ? `<p class="card devnet">This server runs on its own devnet: "Try it" can pay with the dev payer's test USDC.</p>` : ""}
<form id="filters" role="search" class="filters">
<label>Search <input type="search" id="search" name="q" placeholder="name, route or words from the summary" autocomplete="off"></label>
<label>Family <select id="family" name="family"><option value="">All families</option>${options}</select></label>
<span id="shown" class="muted" aria-live="polite">${shown.length} of ${shown.length} endpoints</span>
</form>
<div id="catalog">${families
    .map((f) =>
      familySection(
        f,
        shown.filter((e) => e.family === f),
      ),
    )
    .join("\n")}</div>
<p id="none" class="muted" hidden>No endpoint matches.</p>
${tryDialog(devnet)}`;
}

const head = `<style>
.lead { max-width: 820px; }
.filters { display: flex; gap: 16px; align-items: end; flex-wrap: wrap; margin: 16px 0; }
.filters input { width: 340px; }
.family h2 { margin: 0 0 8px; text-transform: capitalize; }
.family td:first-child { white-space: nowrap; }
.method { font-size: 11px; font-weight: 700; color: var(--muted); }
.price { white-space: nowrap; font-variant-numeric: tabular-nums; }
.actions { white-space: nowrap; }
.actions button { margin-left: 8px; padding: 2px 10px; }
.devnet { border-color: var(--good); }
dialog#try { width: min(900px, 94vw); max-height: 90vh; border: 1px solid var(--line); border-radius: 8px; padding: 20px; }
dialog#try::backdrop { background: rgb(0 0 0 / .35); }
dialog#try textarea { width: 100%; font-family: ui-monospace, monospace; font-size: 13px; }
dialog#try .close { float: right; }
dialog#try .close button { background: none; color: var(--muted); border: none; font-size: 22px; padding: 0 6px; }
dialog#try pre { max-height: 320px; }
@media (max-width: 640px) {
  /* On a phone each endpoint is a short block: name and price, route, what it does, then its links. */
  .filters input { width: 100%; }
  .family table, .family tbody, .family tr { display: block; }
  .family thead { display: none; }
  .family tr { padding: 8px 0; border-bottom: 1px solid var(--line); }
  .family td { display: inline-block; border: 0; padding: 2px 8px 2px 0; }
  .family td:nth-child(4) { display: block; }
}
</style>
<script type="module" src="/site/home.js"></script>`;

export const homePage: PageDef = { path: "/", title: "Catalog", body: renderHome, head };
