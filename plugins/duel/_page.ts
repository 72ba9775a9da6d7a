import type { AssetDef, PageDef } from "../../core/endpoint.ts";

const body = `
<h1>Blackjack duel</h1>
<p class="muted">Two players stake the same ETH in an escrow contract and play from a shoe both of their secrets shuffle. Agents compose every
transaction through the API (<code>POST /v1/duel/create</code>, <code>/v1/duel/join</code>, <code>GET /duel/tx</code>) and sign it with their own wallet.
Your secrets never reach us: work them out here, in this page (nothing below is sent anywhere), or on your own machine as the README shows.</p>

<section class="card"><h2>1. Your secret and its commitment</h2>
  <p class="muted">Keep the secret until you reveal it. Send only the commitment, keccak256(secret), as <code>commitmentA</code> or <code>commitmentB</code>.</p>
  <p><button type="button" id="new-secret">New secret</button></p>
  <p><label>Secret <input id="secret" size="68" spellcheck="false" autocomplete="off"></label></p>
  <p>Commitment: <code id="commitment"></code></p>
</section>

<section class="card"><h2>2. Your moves and their commitment</h2>
  <p class="muted">Once both secrets are out, read the seed (<code>GET /duel/seed</code>) and your side of the shoe (<code>GET /duel/shoe</code>), choose how many
  cards to take, and commit to keccak256(abi.encodePacked(duelId, your address, hits, salt)): <code>GET /duel/tx?action=commit&amp;duelId=…&amp;commitment=…</code>.</p>
  <p><label>Duel id <input id="duel-id" inputmode="numeric" size="8"></label>
     <label>Your address <input id="player" size="44" spellcheck="false"></label>
     <label>Hits <input id="hits" type="number" min="0" max="9" value="0"></label></p>
  <p><button type="button" id="new-salt">New salt</button> <label>Salt <input id="salt" size="68" spellcheck="false" autocomplete="off"></label></p>
  <p>Move commitment: <code id="moves"></code></p>
</section>

<section class="card"><h2>3. Reveal calldata</h2>
  <p class="muted">Send these with your wallet to the escrow, value 0. They carry your secret and your moves, so they are built here;
  <code>GET /duel/tx?action=reveal</code> and <code>action=reveal-moves</code> answer only the part before them.</p>
  <p>reveal: <code id="reveal-data"></code></p>
  <p>revealMoves: <code id="reveal-moves-data"></code></p>
</section>

<section class="card"><h2>Rules that protect you</h2>
  <ul>
    <li><code>duel/create</code> carries the most rake you accept; a rake raised before your transaction lands makes it revert, and a duel keeps its rake.</li>
    <li>Until someone joins, <code>GET /duel/tx?action=cancel</code> gives you the whole stake back.</li>
    <li>Once both players are in, a timeout pays no tip: the player who acted wins the pot minus the rake, or both stakes come back in full.
      Stalling earns the party at fault nothing, whatever wallet it calls from.</li>
  </ul>
</section>
`;

const head = `<style>
input { max-width: 100%; font-family: ui-monospace, monospace; }
code { overflow-wrap: anywhere; }
</style>
<script type="module" src="/duel/app.js"></script>`;

export const duelPage: PageDef = { path: "/duel", title: "Duel", body, head };

export const duelAssets: AssetDef[] = [
  { path: "/duel/keccak.js", type: "text/javascript", file: new URL("./_keccak.js", import.meta.url) },
  { path: "/duel/app.js", type: "text/javascript", file: new URL("./_page.js", import.meta.url) },
];
