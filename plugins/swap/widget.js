// The /swap widget: quotes through the free human route and hands the winning transaction to the
// visitor's EIP-1193 wallet exactly as the aggregator built it (only the value is written in hex, as EIP-1193 wants).
const $ = (id) => document.getElementById(id);
const tokens = JSON.parse($("swap-tokens").textContent);
let account = null;
let quote = null;

function fillTokens(chainSelect, tokenSelect) {
  tokenSelect.replaceChildren(...tokens[chainSelect.value].map((t) => new Option(t.symbol, t.address)));
}
const tokenOf = (chain, address) => tokens[chain].find((t) => t.address === address);

function toBaseUnits(text, decimals) {
  if (!/^\d+(\.\d+)?$/.test(text.trim())) throw new Error("Enter an amount such as 0.5");
  const [whole, fraction = ""] = text.trim().split(".");
  if (fraction.length > decimals) throw new Error(`At most ${decimals} decimals`);
  return (BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0")).toString();
}
function formatUnits(amount, decimals) {
  const s = BigInt(amount)
    .toString()
    .padStart(decimals + 1, "0");
  const fraction = s.slice(-decimals).replace(/0+$/, "");
  return s.slice(0, -decimals) + (fraction ? `.${fraction.slice(0, 6)}` : "");
}
const hex = (decimal) => `0x${BigInt(decimal).toString(16)}`;
const word = (value) => value.replace(/^0x/, "").toLowerCase().padStart(64, "0");
const cell = (text, cls) => Object.assign(document.createElement("td"), { textContent: text, className: cls ?? "" });

function showError(error) {
  $("error").textContent = error ? String(error.message ?? error) : "";
}

async function connect() {
  showError();
  if (!window.ethereum) return showError("No browser wallet found (EIP-1193 window.ethereum).");
  const [first] = await window.ethereum.request({ method: "eth_requestAccounts" });
  account = first;
  $("account").textContent = `Wallet ${account}`;
  $("quote").disabled = false;
}

async function getQuote(event) {
  event.preventDefault();
  showError();
  $("result").hidden = true;
  try {
    const from = tokenOf($("fromChain").value, $("fromToken").value);
    const params = new URLSearchParams({
      fromChain: $("fromChain").value,
      toChain: $("toChain").value,
      fromToken: $("fromToken").value,
      toToken: $("toToken").value,
      amount: toBaseUnits($("amount").value, from.decimals),
      depositor: account,
    });
    const res = await fetch(`/swap/api/quote?${params}`);
    const body = await res.json();
    if (!res.ok)
      throw new Error(
        body.error?.message +
          (body.error?.details?.issues
            ? `: ${body.error.details.issues.map((i) => `${i.field} ${i.message}`).join(", ")}`
            : ""),
      );
    quote = body.data;
    render(quote);
  } catch (error) {
    showError(error);
  }
}

function render(q) {
  const to = tokenOf($("toChain").value, $("toToken").value);
  $("race").tBodies[0].replaceChildren(
    ...q.comparison.map((c) => {
      const row = document.createElement("tr");
      row.dataset.source = c.source;
      row.append(
        cell(String(c.rank)),
        cell(c.source + (c.winner ? " (best)" : ""), c.winner ? "good" : ""),
        cell(`${formatUnits(c.amountOut, to.decimals)} ${to.symbol}`, "num"),
        cell(`${formatUnits(c.netAmountOut, to.decimals)} ${to.symbol}`, "num"),
        cell(String(c.estimateSec), "num"),
      );
      return row;
    }),
  );
  $("skipped").textContent = q.skipped.length
    ? `No route from: ${q.skipped.map((s) => `${s.source} (${s.reason})`).join(", ")}`
    : "";
  $("winner").textContent =
    `${q.source}: ${formatUnits(q.quote.amountOut, to.decimals)} ${to.symbol}, at least ${formatUnits(q.quote.minAmountOut, to.decimals)}, valid until ${new Date(q.quote.quoteExpiresAt).toLocaleTimeString()}`;
  $("fees").replaceChildren(
    ...[`Fee ${q.humanFee.feeBps / 100}% on about $${q.humanFee.amountInUsd}`, ...q.fees.breakdown].map((line) =>
      Object.assign(document.createElement("li"), { textContent: line }),
    ),
  );
  $("status").textContent = "";
  $("result").hidden = false;
}

async function send() {
  showError();
  try {
    const { transaction: tx, approval } = quote;
    const chainId = await window.ethereum.request({ method: "eth_chainId" });
    if (BigInt(chainId) !== BigInt(tx.chainId)) {
      await window.ethereum.request({ method: "wallet_switchEthereumChain", params: [{ chainId: hex(tx.chainId) }] });
    }
    if (approval) {
      $("status").textContent = "Approve in your wallet first…";
      const data = `0x095ea7b3${word(approval.spender)}${word(BigInt(approval.amount).toString(16))}`;
      await window.ethereum.request({
        method: "eth_sendTransaction",
        params: [{ from: account, to: approval.token, data, value: "0x0" }],
      });
    }
    $("status").textContent = "Confirm the swap in your wallet…";
    const hash = await window.ethereum.request({
      method: "eth_sendTransaction",
      params: [{ from: account, to: tx.to, data: tx.data, value: hex(tx.value) }],
    });
    $("status").textContent = `Sent: ${hash}`;
    $("status").className = "good";
  } catch (error) {
    showError(error);
  }
}

for (const side of ["from", "to"]) {
  const chain = $(`${side}Chain`);
  chain.addEventListener("change", () => fillTokens(chain, $(`${side}Token`)));
  fillTokens(chain, $(`${side}Token`));
}
$("connect").addEventListener("click", () => connect().catch(showError));
$("swap-form").addEventListener("submit", getQuote);
$("send").addEventListener("click", send);
