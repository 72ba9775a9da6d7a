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
        cell(c.netAmountOut === null ? "unknown" : `${formatUnits(c.netAmountOut, to.decimals)} ${to.symbol}`, "num"),
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
  $("send").disabled = false;
  $("result").hidden = false;
}

const request = (method, params) => window.ethereum.request({ method, params });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A wallet answers eth_sendTransaction once the transaction is submitted, not mined: the swap must wait for the
// approval's receipt, or it reverts for want of an allowance.
async function receiptOf(hash) {
  for (;;) {
    const receipt = await request("eth_getTransactionReceipt", [hash]);
    if (receipt) return receipt;
    await sleep(1500);
  }
}

function refuseExpired(q, after) {
  const expiresAt = Date.parse(q.quote.quoteExpiresAt);
  if (!(Date.now() < expiresAt))
    throw new Error(`${after}The quote expired at ${new Date(expiresAt).toLocaleTimeString()}: get a new quote`);
}

async function approve(approval) {
  const amounts = approval.resetFirst ? ["0", approval.amount] : [approval.amount];
  for (const amount of amounts) {
    $("status").textContent =
      amount === "0" ? "Reset the allowance to 0 in your wallet first…" : "Approve in your wallet first…";
    const data = `0x095ea7b3${word(approval.spender)}${word(BigInt(amount).toString(16))}`;
    const hash = await request("eth_sendTransaction", [{ from: account, to: approval.token, data, value: "0x0" }]);
    $("status").textContent = `Waiting for the approval ${hash} to be mined…`;
    const receipt = await receiptOf(hash);
    if (BigInt(receipt.status) !== 1n) throw new Error(`The approval ${hash} failed on chain; the swap was not sent`);
  }
}

async function send() {
  showError();
  const q = quote;
  $("send").disabled = true;
  try {
    refuseExpired(q, "");
    const { transaction: tx, approval } = q;
    const chainId = await request("eth_chainId");
    if (BigInt(chainId) !== BigInt(tx.chainId)) {
      await request("wallet_switchEthereumChain", [{ chainId: hex(tx.chainId) }]);
    }
    if (approval) {
      await approve(approval);
      refuseExpired(q, "The approval is mined. ");
    }
    $("status").textContent = "Confirm the swap in your wallet…";
    const hash = await request("eth_sendTransaction", [
      { from: account, to: tx.to, data: tx.data, value: hex(tx.value) },
    ]);
    $("status").textContent = `Sent: ${hash}`;
    $("status").className = "good";
  } catch (error) {
    showError(error);
    $("send").disabled = false;
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
