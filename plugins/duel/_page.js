// The /duel page: secrets, commitments and reveal calldata worked out in the browser. It sends nothing anywhere.
import { keccak256 } from "/duel/keccak.js";

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));
const randomWord = () => `0x${Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
const isWord = (hex) => /^0x[0-9a-fA-F]{64}$/.test(hex);
const word = (n) => BigInt(n).toString(16).padStart(64, "0");
const selector = (signature) => keccak256(new TextEncoder().encode(signature)).slice(0, 10);

function update() {
  const secret = $("secret").value.trim();
  const salt = $("salt").value.trim();
  const player = $("player").value.trim();
  const id = $("duel-id").value.trim();
  const hits = Number($("hits").value);
  const idOk = /^\d+$/.test(id) && BigInt(id) > 0n;
  const hitsOk = Number.isInteger(hits) && hits >= 0 && hits <= 9;
  $("commitment").textContent = isWord(secret) ? keccak256(secret) : "(a secret is 0x and 64 hex digits)";
  $("moves").textContent = idOk && hitsOk && isWord(salt) && /^0x[0-9a-fA-F]{40}$/.test(player)
    ? keccak256(`0x${word(id)}${player.slice(2)}${hits.toString(16).padStart(2, "0")}${salt.slice(2)}`)
    : "(needs the duel id, your address, hits 0-9 and a salt)";
  $("reveal-data").textContent = idOk && isWord(secret) ? `${selector("reveal(uint256,bytes32)")}${word(id)}${secret.slice(2)}` : "(needs the duel id and your secret)";
  $("reveal-moves-data").textContent = idOk && hitsOk && isWord(salt) ? `${selector("revealMoves(uint256,uint8,bytes32)")}${word(id)}${word(hits)}${salt.slice(2)}` : "(needs the duel id, hits and your salt)";
}

$("new-secret").addEventListener("click", () => {
  $("secret").value = randomWord();
  update();
});
$("new-salt").addEventListener("click", () => {
  $("salt").value = randomWord();
  update();
});
for (const id of ["secret", "salt", "player", "duel-id", "hits"]) $(id).addEventListener("input", update);
update();
