import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { serve } from "h3";
import type { Browser } from "playwright-core";
import { depositor, fixtureBody, sameChain, swapService } from "./_service.ts";
import { widgetFixtures } from "./_widget-fixtures.ts";
import { launchChromium, openPage } from "../../helpers/browser.ts";

const shots = new URL("../../../test-results/swap/", import.meta.url);
let browser: Browser | undefined;
after(() => browser?.close());

/** A test EIP-1193 wallet: answers the account and chain, records every transaction it is handed. */
const testWallet = (account: string) => `
  window.__sent = [];
  window.ethereum = {
    isTestWallet: true,
    async request({ method, params }) {
      if (method === "eth_requestAccounts" || method === "eth_accounts") return ["${account}"];
      if (method === "eth_chainId") return "0x2105";
      if (method === "eth_sendTransaction") { window.__sent.push(params[0]); return "0x" + "ab".repeat(32); }
      throw Object.assign(new Error("unsupported " + method), { code: 4200 });
    },
  };`;

test("swap widget: a visitor gets a quote, sees the race, and the wallet receives the winning transaction unchanged", async (t) => {
  const { api, service } = await swapService(t, await widgetFixtures());
  const server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  t.after(() => server.close(true));
  await mkdir(shots, { recursive: true });
  browser = await launchChromium();
  const page = await openPage(browser, { viewport: { width: 1100, height: 900 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.addInitScript(testWallet(depositor));
  await page.goto(`${server.url!.replace(/\/$/, "")}/swap`);
  assert.equal(await page.locator('header.site nav a[aria-current="page"]').textContent(), "Swap");

  await page.selectOption("#fromChain", "8453");
  await page.selectOption("#fromToken", sameChain.fromToken);
  await page.selectOption("#toChain", "8453");
  await page.selectOption("#toToken", sameChain.toToken);
  await page.fill("#amount", "0.01");
  await page.click("#connect");
  await page.waitForSelector("#quote:not([disabled])");
  await page.click("#quote");
  await page.waitForSelector("#result:not([hidden])");
  await page.screenshot({ path: new URL("quote.png", shots).pathname, fullPage: true });

  const rows = await page.$$eval("#race tbody tr", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.source));
  assert.deepEqual(rows, ["kyberswap", "relay"]);
  assert.match((await page.textContent("#winner")) ?? "", /^kyberswap: 29\.97 USDC/);
  assert.match((await page.textContent("#skipped")) ?? "", /lifi \(error\)/);
  assert.match((await page.textContent("#fees")) ?? "", /Fee 0\.84% on about \$30/);

  await page.click("#send");
  await page.waitForFunction(() => (window as any).__sent.length === 1);
  await page.screenshot({ path: new URL("sent.png", shots).pathname, fullPage: true });
  const [sent] = await page.evaluate(() => (window as any).__sent);
  const built = await fixtureBody("kyberswap.build-eth-usdc");
  assert.deepEqual(sent, {
    from: depositor,
    to: built.data.routerAddress,
    data: built.data.data,
    value: "0x2386f26fc10000",
  });
  assert.equal(BigInt(sent.value), BigInt(built.data.transactionValue));
  assert.match((await page.textContent("#status")) ?? "", /^Sent: 0xabab/);
  assert.deepEqual(errors, []);
  assert.ok(
    api.calls.some((c) => c.path.startsWith("/kyberswap/base/api/v1/routes") && c.path.includes("feeAmount=84")),
  );
});

test("swap widget quote: free, limited per visitor with Retry-After, and refuses swaps too small for the minimum fee", async (t) => {
  const { api, service } = await swapService(t, await widgetFixtures(), {
    reuse: true,
    env: { SWAP_WIDGET_QUOTES_PER_HOUR: "2" },
  });
  const query = new URLSearchParams(Object.entries(sameChain).map(([k, v]) => [k, String(v)]));
  const small = new URLSearchParams(query);
  small.set("amount", "1000000000000000");
  const tooSmall = await service.request(`/swap/api/quote?${small}`);
  assert.equal(tooSmall.status, 400);
  assert.equal((await tooSmall.json()).error.details.issues[0].field, "amount");
  const first = await service.request(`/swap/api/quote?${query}`);
  assert.equal(first.status, 200);
  assert.equal((await first.json()).data.humanFee.feeBps, 84);
  const limited = await service.request(`/swap/api/quote?${query}`);
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get("retry-after")) > 0);
  assert.equal(api.calls.filter((c) => c.path.startsWith("/kyberswap/base/api/v1/routes")).length, 1);
});

/**
 * A wallet that mines only when the test says so: every call is logged in order, a submitted transaction gets a
 * hash at once, and its receipt stays null until `window.__mine()`.
 */
const slowChainWallet = (account: string) => `
  window.__log = [];
  window.__sent = [];
  let mined = false;
  window.__mine = () => { mined = true; };
  window.ethereum = {
    async request({ method, params }) {
      window.__log.push(method);
      if (method === "eth_requestAccounts" || method === "eth_accounts") return ["${account}"];
      if (method === "eth_chainId") return "0x2105";
      if (method === "eth_sendTransaction") {
        window.__sent.push(params[0]);
        return "0x" + String(window.__sent.length).padStart(64, "0");
      }
      if (method === "eth_getTransactionReceipt") {
        if (!mined) return null;
        mined = false;
        return { transactionHash: params[0], status: "0x1" };
      }
      throw Object.assign(new Error("unsupported " + method), { code: 4200 });
    },
  };`;

const usdt = "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2";
const router = "0x6131B5fae19EA4f9D964eAc0408E4408b66337b5";

/** The widget with the real quote, changed only where the test says (an approval to grant, an expiry). */
async function openWidget(t: any, change: (quote: any) => void) {
  const { service } = await swapService(t, await widgetFixtures());
  const server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  t.after(() => server.close(true));
  browser ??= await launchChromium();
  const page = await openPage(browser);
  t.after(() => page.close());
  await page.addInitScript(slowChainWallet(depositor));
  await page.route("**/swap/api/quote?*", async (route) => {
    const response = await route.fetch();
    const json = await response.json();
    change(json.data);
    await route.fulfill({ response, json });
  });
  await page.goto(`${server.url!.replace(/\/$/, "")}/swap`);
  await page.selectOption("#fromChain", "8453");
  await page.selectOption("#fromToken", sameChain.fromToken);
  await page.selectOption("#toChain", "8453");
  await page.selectOption("#toToken", sameChain.toToken);
  await page.fill("#amount", "0.01");
  await page.click("#connect");
  await page.waitForSelector("#quote:not([disabled])");
  await page.click("#quote");
  await page.waitForSelector("#result:not([hidden])");
  return page;
}

test("swap widget: the swap waits for the approvals' receipts (reset to 0, then the amount) before it is sent", async (t) => {
  const page = await openWidget(t, (q) => {
    q.approval = { token: usdt, spender: router, amount: "30000000", resetFirst: true };
  });
  await page.click("#send");
  const receiptAsked = (n: number) =>
    page.waitForFunction(
      (count) => (window as any).__log.filter((m: string) => m === "eth_getTransactionReceipt").length >= count,
      n,
    );
  await receiptAsked(1);
  assert.equal(await page.evaluate(() => (window as any).__sent.length), 1, "nothing more before the reset is mined");
  await page.evaluate(() => (window as any).__mine());
  await page.waitForFunction(() => (window as any).__sent.length === 2);
  const countBefore = await page.evaluate(
    () => (window as any).__log.filter((m: string) => m === "eth_getTransactionReceipt").length,
  );
  await receiptAsked(countBefore + 1);
  assert.equal(await page.evaluate(() => (window as any).__sent.length), 2, "the swap waits for the approval");
  await page.evaluate(() => (window as any).__mine());
  await page.waitForFunction(() => (window as any).__sent.length === 3);
  const sent = await page.evaluate(() => (window as any).__sent);
  const word = (hex: string) => hex.replace(/^0x/, "").toLowerCase().padStart(64, "0");
  assert.deepEqual(
    sent.slice(0, 2).map((s: any) => [s.to, s.data]),
    [
      [usdt, `0x095ea7b3${word(router)}${word("0")}`],
      [usdt, `0x095ea7b3${word(router)}${word((30000000).toString(16))}`],
    ],
  );
  const built = await fixtureBody("kyberswap.build-eth-usdc");
  assert.equal(sent[2].data, built.data.data);
  assert.match((await page.textContent("#status")) ?? "", /^Sent: 0x0+3$/);
});

test("swap widget: an expired quote is refused before the wallet is asked for anything", async (t) => {
  const page = await openWidget(t, (q) => {
    q.quote.quoteExpiresAt = new Date(Date.now() - 1000).toISOString();
  });
  await page.click("#send");
  await page.waitForFunction(() => document.getElementById("error")!.textContent !== "");
  assert.match((await page.textContent("#error")) ?? "", /quote expired .*get a new quote/);
  assert.deepEqual(await page.evaluate(() => (window as any).__sent), []);
});
