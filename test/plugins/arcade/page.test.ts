import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { serve } from "h3";
import { chromium, type Browser } from "playwright-core";
import { arcadeService } from "./_arcade.ts";

const shots = new URL("../../../test-results/arcade/", import.meta.url);
let browser: Browser | undefined;
after(() => browser?.close());

test("a human plays dice and blackjack on /arcade, sees the points change, and verifies a result in the browser", async (t) => {
  const { service } = await arcadeService(t);
  const server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  t.after(() => server.close(true));
  await mkdir(shots, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${server.url!.replace(/\/$/, "")}/arcade`);
  assert.equal(await page.title(), "Arcade · x402 agent services");
  assert.equal(await page.getAttribute('header.site a[href="/arcade"]', "aria-current"), "page");

  await page.fill("#alias", "Grace");
  await page.click("#join button[type=submit]");
  await page.waitForFunction(() => document.getElementById("who")?.textContent === "Playing as Grace");
  assert.equal(await page.textContent("#points"), "0");

  // Dice until a win: the points go up on the page.
  for (let i = 0; i < 40 && (await page.textContent("#points")) === "0"; i++) {
    const plays = Number(await page.textContent("#plays"));
    await page.click('button[data-game="dice"][data-choice="over"]');
    await page.waitForFunction((n) => Number(document.getElementById("plays")?.textContent) > n, plays);
  }
  assert.ok(Number(await page.textContent("#points")) >= 10, "a dice win shows its points");
  assert.match(await page.textContent("#out-dice") ?? "", /^Rolled \d \+ \d = \d+: win \+10 points$/);
  await page.screenshot({ path: new URL("dice.png", shots).pathname, fullPage: true });

  await page.click("#verify");
  await page.waitForFunction(() => /^Verified/.test(document.getElementById("verify-result")?.textContent ?? ""));
  assert.equal(await page.getAttribute("#verify-result", "class"), "good");

  // Blackjack: deal, and stand if the hand is still open.
  const playsBefore = Number(await page.textContent("#plays"));
  await page.click("#bj-deal");
  await page.waitForFunction(() => /^You /.test(document.getElementById("out-blackjack")?.textContent ?? ""));
  if (await page.isEnabled("#bj-stand")) {
    assert.match(await page.textContent("#out-blackjack") ?? "", /dealer \S+ \?: your move$/);
    await page.screenshot({ path: new URL("blackjack-open.png", shots).pathname, fullPage: true });
    await page.click("#bj-stand");
    await page.waitForFunction(() => !/your move/.test(document.getElementById("out-blackjack")?.textContent ?? ""));
  }
  await page.waitForFunction((n) => Number(document.getElementById("plays")?.textContent) === n + 1, playsBefore);
  assert.match(await page.textContent("#out-blackjack") ?? "", /: (win|loss|push)/);
  assert.equal(await page.isEnabled("#bj-hit"), false);
  await page.click("#verify");
  await page.waitForFunction(() => /^Verified/.test(document.getElementById("verify-result")?.textContent ?? ""));
  assert.match(await page.textContent("#fairness") ?? "", /"game": "blackjack"/);

  // The history and the leaderboard show the plays.
  await page.waitForFunction((n) => document.querySelectorAll("#history tr").length === n, playsBefore + 1);
  await page.waitForFunction(() => /^Grace · \d+ points$/.test(document.querySelector("#board-week li")?.textContent ?? ""));
  await page.screenshot({ path: new URL("blackjack-verified.png", shots).pathname, fullPage: true });

  // A forged record is caught by the same check.
  const forged = await page.evaluate(async () => {
    const { verifyFairness } = await import("/arcade/fair.js" as string);
    const record = JSON.parse(document.getElementById("fairness")!.textContent!);
    return verifyFairness({ ...record, salt: `${record.salt}!` });
  });
  assert.equal(forged.ok, false);
  assert.deepEqual(errors, []);
});
