import { test } from "node:test";
import assert from "node:assert/strict";
import { serveFixtures, type Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";
import { dataOf } from "../../helpers/expect.ts";
import abiEndpoint from "../../../plugins/onchain/abi.ts";
import contractSource from "../../../plugins/onchain/contract-source.ts";

const dir = new URL("./fixtures/", import.meta.url);
const serviceWith = (url: string) => startTestService({ plugins: ["onchain"], env: { UPSTREAM_SOURCIFY_URL: url } });
const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const IMPLEMENTATION = "0x2Ce6311ddAE708829bc0784C967b7d77D19FD779";
const sourcify = (path: string, status: number, body: unknown): Fixture => ({
  source:
    "https://sourcify.dev/server/api-docs/#/Contract%20Lookup/get_v2_contract__chainId___address_ (200 {match, verifiedAt, chainId, address, abi, ...}; 404 {customCode, message, errorId})",
  request: { method: "GET", path },
  response: { status, body },
});
const unverified = (address: string, fields: string) =>
  sourcify(`/v2/contract/8453/${address}?fields=${fields}`, 404, {
    customCode: "not_found",
    message: `Contract ${address} on chain 8453 not found or not verified`,
    errorId: "0ab3c1e2-5f4d-4b1a-9c52-d5e0f1a2b3c4",
  });

test("contract-source: every file, compiler and optimizer settings, proxy resolution", async (t) => {
  const api = await serveFixtures(t, ["sourcify.contract-proxy-full"], { dir });
  const out = await (await serviceWith(api.url)).call(contractSource, {
    address: USDC_BASE.toLowerCase(),
    chain: "base",
  });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.deepEqual(
    [data.address, data.match, data.name, data.compilerVersion, data.evmVersion],
    [USDC_BASE, "match", "FiatTokenProxy", "0.6.12+commit.27d51765", "istanbul"],
  );
  assert.deepEqual(data.optimizer, { enabled: true, runs: 10000000 });
  assert.deepEqual(
    data.sources.map((s: any) => s.path),
    ["contracts/v1/FiatTokenProxy.sol", "contracts/upgradeability/AdminUpgradeabilityProxy.sol"],
  );
  assert.match(data.sources[0].content, /contract FiatTokenProxy/);
  assert.equal(data.abi.length, 6);
  assert.deepEqual(data.proxy, {
    isProxy: true,
    type: "EIP1967Proxy",
    implementations: [{ address: IMPLEMENTATION, name: "FiatTokenV2_2" }],
  });
  assert.equal(data.url, `https://repo.sourcify.dev/8453/${USDC_BASE}`);
});

test("contract-source: an unverified contract is a 404", async (t) => {
  const api = await serveFixtures(t, [unverified(USDC_BASE, "sources,abi,compilation,proxyResolution")]);
  assert.equal(
    (await (await serviceWith(api.url)).call(contractSource, { address: USDC_BASE, chain: "base" })).status,
    404,
  );
});

test("contract-source: a Sourcify outage is a 502", async (t) => {
  const api = await serveFixtures(
    t,
    [
      sourcify(`/v2/contract/8453/${USDC_BASE}?fields=sources,abi,compilation,proxyResolution`, 500, {
        message: "internal error",
      }),
    ],
    { reuse: true },
  );
  const failed = await (await serviceWith(api.url)).call(contractSource, { address: USDC_BASE, chain: "base" });
  assert.equal(failed.status, 502);
});

test("abi: selectors and topics, and the proxy's implementation ABI", async (t) => {
  const implementationAbi = [
    {
      inputs: [
        { internalType: "address", name: "to", type: "address" },
        { internalType: "uint256", name: "value", type: "uint256" },
      ],
      name: "transfer",
      outputs: [{ internalType: "bool", name: "", type: "bool" }],
      stateMutability: "nonpayable",
      type: "function",
    },
    {
      anonymous: false,
      inputs: [
        { indexed: true, internalType: "address", name: "from", type: "address" },
        { indexed: true, internalType: "address", name: "to", type: "address" },
        { indexed: false, internalType: "uint256", name: "value", type: "uint256" },
      ],
      name: "Transfer",
      type: "event",
    },
  ];
  const full = JSON.parse(
    await import("node:fs/promises").then((fs) =>
      fs.readFile(new URL("sourcify.contract-proxy-full.json", dir), "utf8"),
    ),
  ).response.body;
  const api = await serveFixtures(t, [
    sourcify(`/v2/contract/8453/${USDC_BASE}?fields=abi,proxyResolution`, 200, {
      match: full.match,
      chainId: "8453",
      address: USDC_BASE,
      abi: full.abi,
      proxyResolution: full.proxyResolution,
    }),
    sourcify(`/v2/contract/8453/${IMPLEMENTATION}?fields=abi`, 200, {
      match: "exact_match",
      chainId: "8453",
      address: IMPLEMENTATION,
      abi: implementationAbi,
    }),
  ]);
  const out = await (await serviceWith(api.url)).call(abiEndpoint, { address: USDC_BASE, chain: "base" });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  const data = dataOf(out);
  assert.equal(data.provenance, "sourcify");
  assert.deepEqual(data.functions, [
    { signature: "admin()", selector: "0xf851a440", stateMutability: "view" },
    { signature: "upgradeTo(address)", selector: "0x3659cfe6", stateMutability: "nonpayable" },
  ]);
  assert.deepEqual(
    data.events.map((e: any) => e.signature),
    ["AdminChanged(address,address)", "Upgraded(address)"],
  );
  assert.equal(data.implementation!.address, IMPLEMENTATION);
  assert.deepEqual(data.implementation!.functions, [
    { signature: "transfer(address,uint256)", selector: "0xa9059cbb", stateMutability: "nonpayable" },
  ]);
  assert.deepEqual(data.implementation!.events, [
    {
      signature: "Transfer(address,address,uint256)",
      topic: "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
    },
  ]);
});

test("abi: an unverified contract is a 404", async (t) => {
  const api = await serveFixtures(t, [unverified(USDC_BASE, "abi,proxyResolution")]);
  assert.equal(
    (await (await serviceWith(api.url)).call(abiEndpoint, { address: USDC_BASE, chain: "base" })).status,
    404,
  );
});

test("contract-source and abi: bad input is a 400 calling nothing", async (t) => {
  const api = await serveFixtures(t, []);
  const service = await serviceWith(api.url);
  for (const [path, field] of [
    ["/v1/abi?address=0x1234", "address"],
    [`/v1/contract-source?address=${USDC_BASE}&chain=solana`, "chain"],
  ]) {
    const res = await service.request(path);
    assert.equal(res.status, 400, path);
    assert.ok(
      (await res.json()).error.details.issues.some((i: any) => i.field === field),
      path,
    );
  }
  assert.equal(api.calls.length, 0);
});
