import { serveFixtures, type AfterHost, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService, type InputOf } from "../../helpers/service.ts";
import type swap from "../../../plugins/swap/swap.ts";

export const dir = new URL("./fixtures/", import.meta.url);
export const depositor = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
/** Anvil's second dev account: a test-only fee recipient. */
export const feeRecipient = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
/** Anvil's third dev account: the test's LI.FI portal fee wallet. */
export const lifiFeeWallet = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
export const usdcBase = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
export const usdcArbitrum = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831";
export const zero = "0x0000000000000000000000000000000000000000";

/** The swap family with every upstream on one fixture server, each under its own path prefix. */
export async function swapService(
  t: AfterHost,
  fixtures: (string | Fixture)[],
  options: { reuse?: boolean; env?: Record<string, string> } = {},
) {
  const api = await serveFixtures(t, fixtures, { dir, reuse: options.reuse });
  const env: Record<string, string> = {
    UPSTREAM_RELAY_URL: `${api.url}/relay`,
    UPSTREAM_LIFI_URL: `${api.url}/lifi`,
    UPSTREAM_ACROSS_URL: `${api.url}/across`,
    UPSTREAM_DEBRIDGE_URL: `${api.url}/debridge`,
    UPSTREAM_KYBERSWAP_URL: `${api.url}/kyberswap`,
    UPSTREAM_DEFILLAMA_COINS_URL: `${api.url}/llama`,
    UPSTREAM_JUPITER_URL: `${api.url}/jupiter`,
    UPSTREAM_JUPITER_KEY: "test-jupiter-key",
    SWAP_FEE_RECIPIENT: feeRecipient,
    SWAP_LIFI_FEE_WALLET: lifiFeeWallet,
    SWAP_RACE_DEADLINE_MS: "800",
    ...options.env,
  };
  return { api, service: await startTestService({ plugins: ["swap"], env }) };
}

export const crossChain: InputOf<typeof swap> = {
  fromChain: 8453,
  toChain: 42161,
  fromToken: usdcBase,
  toToken: usdcArbitrum,
  amount: "100000000",
  depositor,
};
export const sameChain: InputOf<typeof swap> = {
  fromChain: 8453,
  toChain: 8453,
  fromToken: zero,
  toToken: usdcBase,
  amount: "10000000000000000",
  depositor,
};

export const fixtureBody = async (name: string) =>
  (await import(new URL(`${name}.json`, dir).href, { with: { type: "json" } })).default.response.body;
