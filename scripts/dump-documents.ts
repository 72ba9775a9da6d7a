/**
 * Every published document of a service booted with a closed gate over a spread of options (EIP-3009 USDC with
 * vouchers and upto, an 18-decimal Permit2 token, a network x402 v1 cannot name, Solana), written into one folder
 * so that two builds can be compared byte for byte: `npx tsx scripts/dump-documents.ts <folder>`, then `diff -r`.
 * Nothing reaches the network: every upstream is left unconfigured or points at a closed local port.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { readConfig } from "../core/runtime/config.ts";
import { createService } from "../core/runtime/server.ts";
import { createMemoryStore } from "../core/runtime/store.ts";
import { createClosedGate } from "../core/payment/gate.ts";
import { x402Offers } from "../core/x402/offers.ts";
import { testPaymentOption } from "../test/helpers/service.ts";
import type { PaymentOption } from "../core/x402/requirements.ts";

const out = process.argv[2];
if (!out) throw new Error("usage: tsx scripts/dump-documents.ts <folder>");
mkdirSync(out, { recursive: true });

const baseUrl = "http://127.0.0.1:4021";
const options: PaymentOption[] = [
  {
    ...testPaymentOption,
    batch: { receiverAuthorizer: "0x1111111111111111111111111111111111111111", withdrawDelay: 86400 },
    upto: { facilitatorAddress: "0x2222222222222222222222222222222222222222" },
  },
  {
    network: "eip155:84532",
    asset: "0x3333333333333333333333333333333333333333",
    payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
    decimals: 18,
    extra: { name: "Dai Stablecoin", version: "1", assetTransferMethod: "permit2" },
    maxTimeoutSeconds: 300,
  },
  {
    network: "eip155:42161",
    asset: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
    decimals: 6,
    extra: { name: "USD Coin", version: "2" },
    maxTimeoutSeconds: 300,
  },
  {
    network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
    asset: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
    payTo: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    decimals: 6,
    extra: { feePayer: "2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4" },
    maxTimeoutSeconds: 300,
  },
];

const config = readConfig({
  BASE_URL: baseUrl,
  LOG_LEVEL: "silent",
  RATE_LIMIT_PER_MINUTE: "0",
  JOBS: "off",
  METRICS_TOKEN: "dump-documents-token",
  UPSTREAM_SEARXNG_URL: "http://127.0.0.1:9",
});
const gate = createClosedGate(x402Offers(options, baseUrl));
const service = await createService({
  config,
  log: pino({ level: "silent" }),
  store: createMemoryStore(),
  payments: async () => ({ gate }),
});

const write = (name: string, body: string) => writeFileSync(join(out, name), body);
const get = async (path: string, init?: RequestInit) => {
  const res = await service.app.request(path, init);
  return `${res.status}\n${await res.text()}`;
};

// The baselines first: the series this service starts with, before any request counts.
const metrics = await get("/metrics", { headers: { authorization: "Bearer dump-documents-token" } });
write(
  "metrics.txt",
  metrics
    .split("\n")
    .filter((line) => /^(# (HELP|TYPE) )?x402_/.test(line))
    .join("\n"),
);

for (const [name, path] of [
  ["openapi.json", "/openapi.json"],
  ["well-known-x402.json", "/.well-known/x402"],
  ["x402-manifest.json", "/x402-manifest"],
  ["llms.txt", "/llms.txt"],
  ["docs.html", "/docs"],
  ["health.json", "/health"],
])
  write(name, await get(path));

let id = 0;
const rpc = (method: string, params: unknown) =>
  get("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
  });
const initialize = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "dump", version: "1" } };
write("mcp-initialize.json", await rpc("initialize", initialize));
write("mcp-tools-list.json", await rpc("tools/list", {}));
const paid = service.runtime.endpoints.find((e) => e.mcp && e.price !== "$0")!;
write(
  "mcp-unpaid-call.json",
  await rpc("tools/call", { name: "call_endpoint", arguments: { name: paid.name, arguments: paid.example.input } }),
);
write("mcp-describe.json", await rpc("tools/call", { name: "describe_endpoint", arguments: { name: paid.name } }));
await service.close();
