import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { privateKeyToAccount } from "viem/accounts";
import { serveFixtures } from "../../helpers/fixtures.ts";
import { chainReader, startDevnet, startPaidService, type Devnet } from "../../helpers/paid.ts";
import { challengeOf, v2Header } from "../../helpers/sign.ts";
import { attention } from "../../../plugins/bet/_environments.ts";
import { betTypedData } from "../../../plugins/bet/_typed-data.ts";
import {
  affiliate,
  base,
  bettorKey,
  calculation,
  conditionId,
  dir,
  polygonRead,
  relayer,
  strangerKey,
} from "./_bet.ts";

const bettor = privateKeyToAccount(bettorKey);
let devnet: Devnet;
let service: Awaited<ReturnType<typeof startPaidService>>;
let chain: ReturnType<typeof chainReader>;

const api = await serveFixtures(
  { after },
  [
    "azuro-api.condition-active",
    calculation(bettor.address, 250.5),
    relayer(200, { id: "order-1", state: "Created" }),
    polygonRead("eth_getCode", [bettor.address, "latest"], "0x", "the bettor is an EOA: no code"),
  ],
  { dir, reuse: true },
);

before(async () => {
  devnet = await startDevnet();
  chain = chainReader(devnet);
  service = await startPaidService(devnet, {
    families: ["bet"],
    env: {
      UPSTREAM_AZURO_API_URL: `${api.url}${base}`,
      UPSTREAM_AZURO_RELAYER_URL: `${api.url}${base}`,
      UPSTREAM_POLYGON_RPC_URL: `${api.url}/polygon-rpc`,
      UPSTREAM_GNOSIS_RPC_URL: `${api.url}/gnosis-rpc`,
      BET_AFFILIATE: affiliate,
    },
  });
});
after(async () => {
  await service?.close();
  await devnet?.stop();
});

async function submitUrl(signerKey: `0x${string}`) {
  const raw = {
    conditionId,
    outcomeId: "29",
    amountRaw: "10500000",
    minOdds: "1760000000000",
    nonce: String(Date.now()),
    expiresAt: Math.floor(Date.now() / 1000) + 300,
    relayerFeeAmount: "23841",
  };
  const typed = betTypedData(
    { chainId: 137, core: "0xF9548Be470A4e130c90ceA8b179FCD66D2972AC7", affiliate, attention },
    raw,
  );
  const signature = await privateKeyToAccount(signerKey).signTypedData(typed as any);
  const query = new URLSearchParams(
    Object.entries({ bettor: bettor.address, signature, ...raw }).map(([k, v]) => [k, String(v)]),
  );
  return `http://127.0.0.1:4021/v1/bet/submit?${query}`;
}

/** Pays the route's price with the devnet payer and returns the answer and how much the payer lost. */
async function paidCall(url: string) {
  const payer = privateKeyToAccount(devnet.accounts.payer.privateKey);
  const { header } = await v2Header(payer, await challengeOf(service.fetch, url));
  const before = await chain.balance(payer.address);
  const res = await service.fetch(url, { headers: { "payment-signature": header } });
  return { res, spent: before - (await chain.balance(payer.address)) };
}

test("bet/submit over x402: a refused signature costs nothing, an accepted order costs $0.05", async () => {
  const refused = await paidCall(await submitUrl(strangerKey));
  assert.equal(refused.res.status, 400);
  assert.equal(((await refused.res.json()) as any).error.code, "signature_mismatch");
  assert.equal(refused.spent, 0n);

  const accepted = await paidCall(await submitUrl(bettorKey));
  const text = await accepted.res.clone().text();
  assert.equal(accepted.res.status, 200, text);
  assert.equal(((await accepted.res.json()) as any).data.betId, "order-1");
  assert.equal(accepted.spent, 50_000n);
});
