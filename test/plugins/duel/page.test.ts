import { after, test } from "node:test";
import assert from "node:assert/strict";
import { serve } from "h3";
import type { Browser } from "playwright-core";
import { encodeFunctionData, encodePacked, keccak256, type Hex } from "viem";
import { duelEscrowAbi } from "../../../plugins/duel/_abi.ts";
import { keccak256 as ours } from "../../../plugins/duel/_keccak.js";
import { startTestService } from "../../helpers/service.ts";
import { launchChromium, openPage } from "../../helpers/browser.ts";

let browser: Browser | undefined;
after(() => browser?.close());

test("duel keccak256: the page's own implementation equals viem's for every padding case", () => {
  for (const n of [0, 1, 31, 32, 55, 135, 136, 137, 271, 272, 500]) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 255);
    assert.equal(ours(bytes), keccak256(bytes), `${n} bytes`);
  }
});

test("/duel: the page works out commitments and reveal calldata in the browser, equal to the contract's, and sends nothing", async (t) => {
  const service = await startTestService({ plugins: ["duel"] });
  t.after(() => service.close());
  const server = serve(service.app, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  t.after(() => server.close(true));
  browser = await launchChromium();
  const page = await openPage(browser);
  const requests: string[] = [];
  page.on("request", (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`));
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${server.url!.replace(/\/$/, "")}/duel`);
  assert.equal(await page.title(), "Duel · x402 agent services");

  await page.click("#new-secret");
  const secret = (await page.inputValue("#secret")) as Hex;
  assert.match(secret, /^0x[0-9a-f]{64}$/);
  assert.equal(await page.textContent("#commitment"), keccak256(secret));

  const player = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
  await page.fill("#duel-id", "42");
  await page.fill("#player", player);
  await page.fill("#hits", "3");
  await page.click("#new-salt");
  const salt = (await page.inputValue("#salt")) as Hex;
  assert.equal(
    await page.textContent("#moves"),
    keccak256(encodePacked(["uint256", "address", "uint8", "bytes32"], [42n, player, 3, salt])),
  );
  assert.equal(
    await page.textContent("#reveal-data"),
    encodeFunctionData({ abi: duelEscrowAbi, functionName: "reveal", args: [42n, secret] }),
  );
  assert.equal(
    await page.textContent("#reveal-moves-data"),
    encodeFunctionData({ abi: duelEscrowAbi, functionName: "revealMoves", args: [42n, 3, salt] }),
  );

  assert.deepEqual(errors, []);
  assert.deepEqual(
    requests.filter((r) => !["GET /duel", "GET /duel/app.js", "GET /duel/keccak.js", "GET /favicon.svg"].includes(r)),
    [],
    "only the page and its scripts",
  );
  assert.ok(requests.every((r) => !r.includes(secret.slice(2)) && !r.includes(salt.slice(2))));
});
