import type { Fixture } from "../../helpers/fixtures.ts";
import { serveFixtures, type AfterHost } from "../../helpers/fixtures.ts";
import { startTestService, type TestServiceOptions } from "../../helpers/service.ts";
import { coinPair, seedOf } from "../../../plugins/arcade/_fair.js";

export const dir = new URL("./fixtures/", import.meta.url);
export const BLOCK_HASH = "0x92625bce921d78ae8d91033bca6a51bb21c0fdc468de19ba51c1f052e05e3374";
export const chainFixtures = ["payment-chain.latest-block", "payment-chain.chain-id"];

/** Every upstream of the arcade on one fixture server, each under its own path prefix. */
export const upstreamEnv = (url: string) => ({
  UPSTREAM_PAYMENT_CHAIN_URL: `${url}/chain`,
  UPSTREAM_COINGECKO_URL: `${url}/coingecko`,
  UPSTREAM_ALTERNATIVE_ME_URL: `${url}/fng-api`,
  UPSTREAM_BINANCE_FUTURES_URL: `${url}/binance`,
  UPSTREAM_OKX_URL: `${url}/okx`,
});

/** A fixture server answering the chain (any number of times) and the given fixtures, and a service on it. */
export async function arcadeService(t: AfterHost, fixtures: (string | Fixture)[] = [], options: TestServiceOptions = {}) {
  const api = await serveFixtures(t, [...chainFixtures, ...fixtures], { dir, reuse: true });
  const service = await startTestService({ plugins: ["arcade"], ...options, env: { ...upstreamEnv(api.url), ...options.env } });
  return { api, service };
}

export const player = (alias = "ada", secret = "correct horse battery") => ({ alias, secret });

/** The first salts (`prefix-0`, `prefix-1`, ...) whose seed on the fixture block passes `test`. */
export async function saltsWhere(test: (seedHex: string) => Promise<boolean> | boolean, count = 1, prefix = "s"): Promise<string[]> {
  const found: string[] = [];
  for (let i = 0; found.length < count && i < 20_000; i++) {
    if (await test(await seedOf(BLOCK_HASH, `${prefix}-${i}`))) found.push(`${prefix}-${i}`);
  }
  if (found.length < count) throw new Error("no salt found");
  return found;
}

/** CoinGecko /coins/markets for the pair a salt draws, with the given market caps (shown, hidden). */
export async function marketsFixture(salt: string, caps: [number, number]): Promise<Fixture> {
  const pair = await coinPair(await seedOf(BLOCK_HASH, salt));
  const row = (id: string, cap: number) => ({ id, symbol: id.slice(0, 4), name: id[0].toUpperCase() + id.slice(1), current_price: 1.5, market_cap: cap, market_cap_rank: 10 });
  return {
    source: "https://docs.coingecko.com/reference/coins-markets (array of coins with id, symbol, name, current_price, market_cap, market_cap_rank, ...)",
    request: { method: "GET", path: `/coingecko/coins/markets?vs_currency=usd&ids=${pair.shown},${pair.hidden}` },
    response: { status: 200, body: [row(pair.shown, caps[0]), row(pair.hidden, caps[1])] },
  };
}

export const data = (out: { body: unknown }) => (out.body as any).data;
