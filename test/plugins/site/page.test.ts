import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { serve } from "h3";
import type { Browser, Page } from "playwright-core";
import { startTestService, testPaymentOption } from "../../helpers/service.ts";
import { launchChromium, openPage } from "../../helpers/browser.ts";

const token = "operator-secret-for-page-tests";
const env = { REVIEWS_OPERATOR_TOKEN: token };
const shots = new URL("../../../test-results/site/", import.meta.url);
let browser: Browser | undefined;
after(() => browser?.close());

async function openSite(t: { after(fn: () => unknown): void }) {
  const service = await startTestService({ plugins: ["converters", "site"], env });
  t.after(() => service.close());
  const server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  t.after(() => server.close(true));
  await mkdir(shots, { recursive: true });
  browser ??= await launchChromium();
  const page = await openPage(browser, { viewport: { width: 1200, height: 1000 } });
  t.after(() => page.close());
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  t.after(() => assert.deepEqual(errors, []));
  return { service, page, base: server.url!.replace(/\/$/, "") };
}

const shot = (page: Page, name: string) => page.screenshot({ path: new URL(name, shots).pathname, fullPage: true });
const navOf = (html: string) =>
  /<header class="site">(.*?)<\/header>/s.exec(html)?.[1]?.replace(/ aria-current="page"/, "");

test("the catalog: search finds an endpoint, and try it shows the route's real 402 challenge decoded", async (t) => {
  const { service, page, base } = await openSite(t);
  await page.goto(`${base}/`);
  assert.equal(await page.title(), "Catalog · x402 agent services");
  assert.equal(await page.getAttribute('header.site nav a[href="/"]', "aria-current"), "page");
  const total = service.runtime.endpoints.filter((e) => e.family !== "site").length;
  assert.equal(await page.textContent("#shown"), `${total} of ${total} endpoints`);

  await page.fill("#search", "md5");
  await page.waitForFunction(() => /^1 of/.test(document.getElementById("shown")!.textContent!));
  const visible = await page.$$eval("#catalog tbody tr:not([hidden]) td:first-child", (tds) =>
    tds.map((td) => td.textContent),
  );
  assert.deepEqual(visible, ["hash"]);
  assert.equal(await page.isHidden('section.family[data-family="core"]'), true);
  assert.equal(await page.textContent('section.family[data-family="converters"] .count'), "1");
  assert.match(page.url(), /\?q=md5$/);
  await shot(page, "search.png");

  await page.click('#catalog tr:not([hidden]) button.try[data-name="hash"]');
  await page.waitForSelector("dialog#try[open]");
  assert.deepEqual(JSON.parse(await page.inputValue("#try-input")), { text: "hi", algo: "sha256" });
  await page.fill("#try-input", JSON.stringify({ text: "héllo", algo: "keccak256" }));
  await page.click("#try-send");
  await page.waitForSelector("#try-challenge:not([hidden])");
  assert.equal(await page.textContent("#try-status"), "HTTP 402");

  // What the page decoded is what the route sends.
  const direct = await service.request("/v1/hash?text=h%C3%A9llo&algo=keccak256");
  const expected = JSON.parse(Buffer.from(direct.headers.get("payment-required")!, "base64").toString("utf8"));
  const shown = JSON.parse((await page.textContent("#try-v2"))!);
  assert.deepEqual(shown, expected);
  assert.equal(shown.accepts[0].amount, "1000");
  assert.equal(shown.accepts[0].payTo, testPaymentOption.payTo);
  assert.equal(shown.resource.url, "http://127.0.0.1:4021/v1/hash");
  const v1 = JSON.parse((await page.textContent("#try-v1"))!);
  assert.equal(v1.x402Version, 1);
  assert.equal(v1.accepts[0].maxAmountRequired, "1000");
  assert.match(
    (await page.textContent("#try-summary"))!,
    /^\$0\.001, that is 1000 atomic units of USDC 0x036CbD53842c5426634e7929541eC2318f3dCF7e on eip155:84532/,
  );
  assert.equal(await page.$("#try-pay"), null, "no dev payer outside the devnet");
  assert.equal(
    (
      await service.request("/site/api/devnet-pay", {
        method: "POST",
        body: '{"name":"hash"}',
        headers: { "content-type": "application/json" },
      })
    ).status,
    404,
  );
  await shot(page, "try-402.png");

  // Bad input is answered 400 before any payment, and shown as such.
  await page.fill("#try-input", JSON.stringify({ algo: "keccak256" }));
  await page.click("#try-send");
  await page.waitForSelector("#try-result:not([hidden])");
  assert.equal(await page.textContent("#try-status"), "HTTP 400");
  assert.equal(JSON.parse((await page.textContent("#try-answer"))!).error.details.issues[0].field, "text");
  await page.keyboard.press("Escape");

  // Each endpoint links to its operation in the API reference, which has the same navigation.
  await page.click('#catalog tr:not([hidden]) a[href="/docs#/converters/hash"]');
  await page.waitForSelector("#operations-converters-hash .opblock-body");
  assert.equal(await page.getAttribute('header.site nav a[href="/docs"]', "aria-current"), "page");
  await page.screenshot({ path: new URL("docs.png", shots).pathname });
});

test("one navigation and look for /, /docs, /arcade, /swap and /reviews", async (t) => {
  const service = await startTestService({ plugins: ["arcade", "converters", "site", "swap"], env });
  t.after(() => service.close());
  const navs = await Promise.all(
    ["/", "/docs", "/arcade", "/swap", "/reviews"].map(async (path) =>
      navOf(await (await service.request(path)).text()),
    ),
  );
  assert.ok(navs[0]?.includes('<a href="/reviews">Reviews</a>'), navs[0]);
  for (const nav of navs) assert.equal(nav, navs[0]);
  // Swagger UI splits its deep links on "/": a slashed name links to its family's section.
  const home = await (await service.request("/")).text();
  assert.match(home, /<a href="\/docs#\/arcade">Docs<\/a>\n<button type="button" class="try" data-name="arcade\/play"/);
  assert.match(
    home,
    /People can play the <a href="\/arcade">arcade<\/a> free, swap with the <a href="\/swap">swap widget<\/a> and <a href="\/reviews">review the service<\/a>\./,
  );
});

test("reviews: submitted, refused after 5 in an hour, and shown, escaped, only after an operator approves them", async (t) => {
  const { service, page, base } = await openSite(t);
  await page.goto(`${base}/reviews`);
  assert.equal(await page.textContent("#review-summary"), "No reviews yet.");
  const texts = [
    "<img src=x onerror=\"document.title='owned'\"> Clear prices, <b>fast</b> answers.",
    "Second",
    "Third",
    "Fourth",
    "Fifth",
  ];
  for (const [i, text] of texts.entries()) {
    await page.fill("#review-name", i === 0 ? "Grace <3" : "");
    await page.selectOption("#review-rating", i === 0 ? "5" : "4");
    await page.fill("#review-text", text);
    await page.click("#review-form button[type=submit]");
    await page.waitForFunction(
      (left) => document.getElementById("review-status")!.textContent!.includes(`send ${left} more`),
      4 - i,
    );
  }
  assert.equal(await page.getAttribute("#review-status", "class"), "good");
  await shot(page, "review-submitted.png");

  await page.fill("#review-text", "Sixth");
  await page.click("#review-form button[type=submit]");
  await page.waitForFunction(() =>
    /most reviews allowed in an hour; try again in \d+ minutes?\./.test(
      document.getElementById("review-status")!.textContent!,
    ),
  );
  assert.equal(await page.getAttribute("#review-status", "class"), "bad");
  await shot(page, "review-refused.png");

  // Held: nothing is shown until an operator approves.
  await page.reload();
  assert.equal(await page.$$eval("#reviews li", (li) => li.length), 0);
  const operator = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const held = (await (await fetch(`${base}/site/api/reviews/pending`, { headers: operator })).json()).data.reviews;
  assert.equal(held.length, 5);
  const first = held.find((r: any) => r.text.startsWith("<img"));
  const approved = await fetch(`${base}/site/api/reviews/approve`, {
    method: "POST",
    headers: operator,
    body: JSON.stringify({ id: first.id }),
  });
  assert.equal(approved.status, 200);

  await page.reload();
  assert.deepEqual(await page.$$eval("#reviews li", (li) => li.map((l) => (l as HTMLElement).dataset.id)), [first.id]);
  assert.equal(await page.textContent("#reviews .text"), texts[0]);
  assert.equal(await page.textContent("#reviews strong"), "Grace <3");
  assert.equal(await page.$$eval("#reviews img, #reviews b", (els) => els.length), 0);
  assert.equal(await page.title(), "Reviews · x402 agent services");
  assert.equal(await page.textContent("#review-summary"), "1 review, 5.0 stars on average.");
  await shot(page, "review-approved.png");
  assert.equal((await (await service.request("/site/api/reviews")).json()).data.reviews.length, 1);
});
