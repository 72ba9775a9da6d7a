import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { serve } from "srvx";
import type { Browser } from "playwright-core";
import { keccak256, toHex } from "viem";
import devnetPay from "../../../plugins/site/devnet-pay.ts";
import { siteDevnet } from "../../../plugins/site/_settings.ts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { launchChromium, openPage } from "../../helpers/browser.ts";

const shots = new URL("../../../test-results/site/", import.meta.url);
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let server: ReturnType<typeof serve>;
let selfUrl: string;
let browser: Browser | undefined;

before(async () => {
  devnet = await startDevnet();
  // The listener comes first, so the service can be told its own URL the way the devnet tells it (siteDevnet).
  server = serve({ fetch: (request) => service.app.fetch(request), port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  selfUrl = server.url!.replace(/\/$/, "");
  const env = siteDevnet.settings({ ...devnet, payer: devnet.accounts.payer, selfUrl });
  service = await startPaidService(devnet, { families: ["converters", "site"], env });
});
after(async () => {
  await browser?.close();
  await server?.close(true);
  await service?.close();
  await devnet?.stop();
});

test("on the devnet, try it pays the call with the dev payer and shows the answer and the receipt", async () => {
  const chain = chainReader(devnet);
  const before = await chain.balance(devnet.accounts.payTo.address);
  await mkdir(shots, { recursive: true });
  browser = await launchChromium();
  const page = await openPage(browser, { viewport: { width: 1200, height: 1000 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${selfUrl}/?q=md5`);
  assert.match((await page.textContent(".devnet"))!, /pay with the dev payer/);
  await page.click('#catalog tr:not([hidden]) button.try[data-name="hash"]');
  await page.fill("#try-input", JSON.stringify({ text: "devnet", algo: "keccak256" }));
  await page.click("#try-send");
  await page.waitForSelector("#try-challenge:not([hidden])");
  assert.equal(JSON.parse((await page.textContent("#try-v2"))!).accepts[0].asset, devnet.usdc.address);

  await page.click("#try-pay");
  await page.waitForSelector("#try-paid:not([hidden])");
  assert.equal(await page.textContent("#try-status"), `Paid by ${devnet.accounts.payer.address}: HTTP 200`);
  const answer = JSON.parse((await page.textContent("#try-answer"))!);
  assert.equal(answer.data.hex, keccak256(toHex("devnet")).slice(2));
  const receipt = JSON.parse((await page.textContent("#try-receipt"))!);
  assert.equal(receipt.success, true);
  assert.equal(receipt.network, "eip155:84532");
  assert.equal(receipt.payer, devnet.accounts.payer.address);
  const mined = await chain.client.getTransactionReceipt({ hash: receipt.transaction });
  assert.equal(mined.status, "success");
  assert.equal((await chain.balance(devnet.accounts.payTo.address)) - before, 1000n);
  await page.locator("#try-receipt").scrollIntoViewIfNeeded();
  await page.screenshot({ path: new URL("devnet-paid.png", shots).pathname });
  assert.deepEqual(errors, []);
});

test("the dev payer pays only loaded, paid endpoints; its answer is the documented example's", async () => {
  const post = (body: unknown) =>
    service.fetch(`${service.baseUrl}/site/api/devnet-pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  assert.equal((await post({ name: "nowhere" })).status, 404);
  const free = await post({ name: "site/reviews" });
  assert.equal(free.status, 400);
  assert.equal((await free.json()).error.details.issues[0].field, "name");
  const bad = await post({ name: "hash", input: { algo: "keccak256" } });
  assert.equal(bad.status, 200);
  const { data } = await bad.json();
  assert.equal(data.status, 400, "bad input is refused before any payment");
  assert.equal(data.receipt, undefined);

  const paid = await (await post(devnetPay.example.input)).json();
  const { example } = devnetPay;
  assert.equal(paid.data.request, example.output.request);
  assert.deepEqual((paid.data.answer as any).data, (example.output.answer as any).data);
  assert.equal(paid.data.payer, example.output.payer);
  assert.equal(paid.data.receipt.payer, example.output.receipt!.payer);
});
