import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { serve } from "h3";
import type { Browser, Page } from "playwright-core";
import { drawStage, seedOf, verifyFairness, type DrawState } from "../../../plugins/arcade/_fair.js";
import { arcadeService } from "./_arcade.ts";
import { launchChromium, openPage } from "../../helpers/browser.ts";

const shots = new URL("../../../test-results/arcade/", import.meta.url);
let browser: Browser | undefined;
after(() => browser?.close());

/** The record with its first block changed and every draw redone for it: only the chain can tell. */
async function remake(record: any, change: object) {
  let state: DrawState = {};
  const stages = [];
  for (const [i, stage] of record.stages.entries()) {
    const next = { ...stage, ...(i === 0 ? change : {}) };
    next.seedHex = await seedOf(next.blockHash, record.salt);
    const drawn = await drawStage(record.game, next.action, next.seedHex, state);
    state = drawn.state;
    stages.push({ ...next, drawn: drawn.drawn });
  }
  const [first] = stages;
  return {
    ...record,
    stages,
    blockHash: first.blockHash,
    blockNumber: first.blockNumber,
    seedHex: first.seedHex,
    derived: { cards: state.used },
    outcome: state.hand!.outcome,
  };
}

/**
 * The record remade on a made-up first block hash. A redrawn deal can end the hand at once (a natural blackjack),
 * leaving no place for the record's later stages: the next made-up hash is tried then.
 */
async function remakeWithMadeUpHash(record: any) {
  for (let byte = 0xcd; byte <= 0xff; byte++) {
    const made = await remake(record, { blockHash: `0x${byte.toString(16).repeat(32)}` }).catch(() => undefined);
    if (made) return made;
  }
  throw new Error("no made-up block hash redraws this record's stages");
}

const textOf = (page: Page, id: string) => page.textContent(`#${id}`).then((x) => x ?? "");
const waitText = (page: Page, id: string, pattern: RegExp) =>
  page.waitForFunction(([el, source]) => new RegExp(source).test(document.getElementById(el)?.textContent ?? ""), [
    id,
    pattern.source,
  ] as const);

test("a human plays on /arcade with a proof of work per play, waits for the deciding block, and checks results against the chain", async (t) => {
  const a = await arcadeService(t, [], { env: { ARCADE_POW_WORK: "300" } });
  const server = serve(a.service.app, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  t.after(() => server.close(true));
  await mkdir(shots, { recursive: true });
  browser = await launchChromium();
  const page = await openPage(browser, { viewport: { width: 1200, height: 1600 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  await page.goto(`${server.url!.replace(/\/$/, "")}/arcade`);
  assert.equal(await page.title(), "Arcade · x402 agent services");

  await page.fill("#alias", "Grace");
  await page.click("#join button[type=submit]");
  await waitText(page, "who", /^Playing as Grace$/);

  // Dice: the widget solves a proof of work, the play waits for its block, the block decides it.
  await page.click('button[data-game="dice"][data-choice="over"]');
  await waitText(page, "out-dice", /^waiting for block \d+/);
  const block = await a.mineAndDraw();
  await waitText(page, "out-dice", /^Rolled \d \+ \d = \d+: (win|loss)/);
  await waitText(page, "plays", /^1$/);
  assert.equal(
    (await a.service.runtime.store.keys("arcade:pow-used:")).length,
    1,
    "one proof of work spent on one play",
  );
  await page.click("#verify");
  await waitText(page, "verify-result", /^Verified: block \d+ of eip155:84532/);
  assert.match(await textOf(page, "verify-result"), new RegExp(`block ${block.number} of`));
  await page.screenshot({ path: new URL("dice.png", shots).pathname, fullPage: true });

  // Blackjack: the deal, then a stand, each drawn by the block after it.
  await page.click("#bj-deal");
  await waitText(page, "out-blackjack", /^waiting for block/);
  await a.mineAndDraw();
  await waitText(page, "out-blackjack", /^You /);
  if (await page.isEnabled("#bj-stand")) {
    assert.match(await textOf(page, "out-blackjack"), /dealer \S+ \?: your move$/);
    await page.click("#bj-stand");
    await waitText(page, "out-blackjack", /^waiting for block/);
    await a.mineAndDraw();
    await waitText(page, "out-blackjack", /: (win|loss|push)/);
  }
  assert.equal(await page.isEnabled("#bj-hit"), false);
  await page.click("#verify");
  await waitText(page, "verify-result", /^Verified/);
  await page.waitForFunction(() => document.querySelectorAll("#history tr").length === 2);
  const record = JSON.parse(await textOf(page, "fairness"));
  assert.equal(record.game, "blackjack");

  // A record with a made-up block hash or number is refused, though its arithmetic adds up for the hash the forger chose.
  await page.click("summary:has-text('Check any fairness record')");
  const check = async (forged: object) => {
    await page.fill("#check-input", JSON.stringify(forged));
    await page.evaluate(() => void (document.getElementById("check-result")!.textContent = ""));
    await page.click("#check");
    await waitText(page, "check-result", /^(Verified|Mismatch|Could not)/);
    return textOf(page, "check-result");
  };
  assert.match(await check(record), /^Verified/);
  const forged = {
    hash: await remakeWithMadeUpHash(record),
    number: await remake(record, { blockNumber: 999_999_999 }),
  };
  for (const made of Object.values(forged))
    assert.equal((await verifyFairness(made)).ok, true, "the forged draws add up");
  assert.match(
    await check(forged.hash),
    new RegExp(
      `^Mismatch: stage 1 \\(deal\\) block \\d+: the chain's hash is 0x[0-9a-f]{64}, the record says ${forged.hash.blockHash}`,
    ),
  );
  assert.match(
    await check(forged.number),
    /^Mismatch: stage 1 \(deal\) block 999999999: the chain has no such block yet/,
  );
  await page.screenshot({ path: new URL("forged.png", shots).pathname, fullPage: true });

  assert.deepEqual(errors, []);
  // A script posting without the widget gets no play.
  const scripted = await page.evaluate(
    async () =>
      (
        await fetch("/arcade/api/play", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            game: "dice",
            choice: "seven",
            salt: "script",
            player: { alias: "bot", secret: "bot-secret-1" },
          }),
        })
      ).status,
  );
  assert.equal(scripted, 403);
});
