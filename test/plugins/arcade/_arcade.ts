import assert from "node:assert/strict";
import type { Fixture } from "../../helpers/fixtures.ts";
import { serveFixtures, type AfterHost } from "../../helpers/fixtures.ts";
import { startTestService, type TestServiceOptions } from "../../helpers/service.ts";
import { drawStage, seedOf } from "../../../plugins/arcade/_fair.js";
import { fakeChain, testClock, type FakeChain, type TestClock } from "./_chain.ts";

export const dir = new URL("./fixtures/", import.meta.url);

/** Every upstream of the arcade on one fixture server, each under its own path prefix, and the chain on its own. */
export const upstreamEnv = (url: string, chain: string) => ({
  UPSTREAM_PAYMENT_CHAIN_URL: chain,
  UPSTREAM_COINGECKO_URL: `${url}/coingecko`,
  UPSTREAM_ALTERNATIVE_ME_URL: `${url}/fng-api`,
  UPSTREAM_BINANCE_FUTURES_URL: `${url}/binance`,
  UPSTREAM_OKX_URL: `${url}/okx`,
});

export interface ArcadeOptions extends TestServiceOptions {
  clock?: TestClock;
  chain?: FakeChain;
}

/**
 * A service with a test clock, a fake payment chain that mines when told, and the given fixtures. `draw()`
 * moves the clock a second (one job tick) and runs the draw job; `mineAndDraw()` mines a block first.
 */
export async function arcadeService(t: AfterHost, fixtures: (string | Fixture)[] = [], options: ArcadeOptions = {}) {
  const clock = options.clock ?? testClock();
  const chain = options.chain ?? (await fakeChain(t, clock));
  const api = await serveFixtures(t, fixtures, { dir, reuse: true });
  const service = await startTestService({
    plugins: ["arcade"],
    now: clock.now,
    ...options,
    env: { ...upstreamEnv(api.url, chain.url), ...options.env },
  });
  t.after(() => service.close());
  const runJob = async (name: string) => {
    clock.advance(name === "arcade-draw" ? 1_000 : 10_000);
    assert.equal(await service.jobs.run(name), true, `${name} ran`);
  };
  return {
    api,
    service,
    clock,
    chain,
    draw: () => runJob("arcade-draw"),
    settle: () => runJob("arcade-settle"),
    async mineAndDraw(hash?: string) {
      const block = chain.mine(hash);
      await runJob("arcade-draw");
      return block;
    },
  };
}

export const player = (alias = "ada", secret = "correct horse battery") => ({ alias, secret });

/** The first salts (`prefix-0`, `prefix-1`, ...) whose draw on the given block hash passes `test`. */
export async function saltsWhere(
  blockHash: string,
  test: (seedHex: string) => Promise<boolean> | boolean,
  count = 1,
  prefix = "s",
): Promise<string[]> {
  const found: string[] = [];
  for (let i = 0; found.length < count && i < 20_000; i++) {
    if (await test(await seedOf(blockHash, `${prefix}-${i}`))) found.push(`${prefix}-${i}`);
  }
  if (found.length < count) throw new Error("no salt found");
  return found;
}

/** CoinGecko /coins/markets for the given coins and market caps. */
export function marketsFixture(caps: [string, number][]): Fixture {
  const row = ([id, cap]: [string, number]) => ({
    id,
    symbol: id.slice(0, 4),
    name: id[0].toUpperCase() + id.slice(1),
    current_price: 1.5,
    market_cap: cap,
    market_cap_rank: 10,
  });
  return {
    source:
      "https://docs.coingecko.com/reference/coins-markets (array of coins with id, symbol, name, current_price, market_cap, market_cap_rank, ...)",
    request: {
      method: "GET",
      path: `/coingecko/coins/markets?vs_currency=usd&ids=${caps.map(([id]) => id).join(",")}`,
    },
    response: { status: 200, body: caps.map(row) },
  };
}

/** What a stage draws for a salt on a block hash. */
export const drawOn = async (game: string, action: string, blockHash: string, salt: string, state = {}) =>
  drawStage(game, action, await seedOf(blockHash, salt), state);

export const data = (out: { body: unknown }) => (out.body as any).data;
