// test: own-process: runs the pay CLI as processes
import { plannedDevnet } from "../../../core/x402/devnet/index.ts";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { readConfig } from "../../../core/runtime/config.ts";
import { listen } from "../../../core/runtime/listen.ts";
import { createService } from "../../../core/runtime/server.ts";
import { createClosedGate } from "../../../core/payment/gate.ts";
import { x402Offers } from "../../../core/x402/offers.ts";
import { createPayments } from "../../../core/x402/payments.ts";
import { probePlugin } from "../../helpers/probe-plugin.ts";
import { closedAfterTest, testPaymentOption } from "../../helpers/service.ts";
import { tsNodeArgs, tsNodeEnv } from "../../helpers/ts-node.ts";

// A service that says it runs its own devnet (the chain is never called: every case stops before paying).
const devnet = { rpcUrl: "http://127.0.0.1:9", chainId: 84532 };
let server: Awaited<ReturnType<typeof listen>>;
let baseUrl: string;
let service: Awaited<ReturnType<typeof createService>>;

before(async () => {
  const config = readConfig({ LOG_LEVEL: "silent", RATE_LIMIT_PER_MINUTE: "0", JOBS: "off" });
  service = closedAfterTest(
    await createService({
      config,
      log: pino({ level: "silent" }),
      plugins: [probePlugin],
      payments: async () => ({
        gate: createClosedGate(x402Offers([testPaymentOption], config.baseUrl)),
        devnet: { ...devnet, contracts: {} },
      }),
    }),
  );
  server = await listen(service.app, { port: 0, host: "127.0.0.1", handlerTimeoutMs: 30_000 });
  baseUrl = `http://127.0.0.1:${(server.node!.server!.address() as AddressInfo).port}`;
});
after(async () => {
  await server.close(true);
  await service.close();
});

/** `npm run pay -- <args>` with nothing set but the service's URL (no RPC_URL, no PAYER_KEY). */
function pay(...args: string[]) {
  return payWith({ BASE_URL: baseUrl }, ...args);
}

function payWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      tsNodeArgs("core/x402/pay.ts", ...args),
      { env: { PATH: process.env.PATH, ...tsNodeEnv(), ...env }, cwd: new URL("../../../", import.meta.url).pathname },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

test("pay: a scheme the route does not offer is one line naming what it offers, not a stack trace", async () => {
  for (const [flags, wanted] of [
    [["--scheme", "batch"], /does not take batch-settlement \(vouchers are on with X402_BATCH_SETTLEMENT=on\)/],
    [["--scheme", "upto"], /does not take upto/],
    [["--network", "solana"], /does not take exact on Solana/],
  ] as const) {
    const { code, stderr, stdout } = await pay("/v1/probe?echo=hi", ...flags);
    assert.equal(code, 2, stderr);
    assert.equal(stderr.trim().split("\n").length, 1, stderr);
    assert.match(stderr, wanted);
    assert.match(stderr, /it offers exact on eip155:84532$/m);
    assert.equal(stdout, "", "nothing was paid");
  }
});

test("pay: an unknown scheme is one line naming the ones there are", async () => {
  const { code, stderr } = await pay("/v1/probe", "--scheme", "stream");
  assert.equal(code, 2);
  assert.equal(stderr.trim(), "--scheme stream: batch or upto (exact without it)");
});

test("pay: /health names the devnet's chain, which pay reads instead of RPC_URL", async () => {
  const health = await (await fetch(`${baseUrl}/health`)).json();
  assert.deepEqual(health.devnet, devnet);
});

test("from a plain `npm start` (the embedded devnet, nothing set): pay --scheme batch, --scheme upto and --token dai answer 200", async () => {
  const config = readConfig({ LOG_LEVEL: "silent", PORT: "0", JOBS: "off", PLUGINS: "converters" });
  const started = closedAfterTest(
    await createService({
      config,
      log: pino({ level: "silent" }),
      payments: async (context) => await createPayments(config, context),
    }),
  );
  const running = await listen(started.app, { port: 0, host: "127.0.0.1", handlerTimeoutMs: 30_000 });
  const url = `http://127.0.0.1:${(running.node!.server!.address() as AddressInfo).port}`;
  try {
    const required = await fetch(`${url}/v1/hash?text=hi`);
    const accepts = JSON.parse(Buffer.from(required.headers.get("payment-required")!, "base64").toString()).accepts;
    assert.ok(
      accepts.some((a: { scheme: string }) => a.scheme === "batch-settlement"),
      "vouchers are offered",
    );

    const batch = await payWith({ BASE_URL: url }, "/v1/hash?text=hi", "--scheme", "batch");
    assert.equal(batch.code, 0, batch.stderr + batch.stdout);
    assert.match(batch.stdout, /paying 100 calls/);
    const upto = await payWith({ BASE_URL: url }, "/v1/hash?text=hi", "--scheme", "upto");
    assert.equal(upto.code, 0, upto.stderr + upto.stdout);
    assert.match(upto.stdout, /as the one call of \/v1\/batch/);
    assert.match(upto.stdout, /^HTTP 200$/m);
    assert.match(upto.stdout, /amount: '1000'/, "upto settled what the one call used");
    // The devnet's test DAI has no EIP-3009: @x402/evm's exact client pays it through Permit2.
    assert.ok(
      accepts.some(
        (a: { asset: string; extra: { assetTransferMethod?: string } }) =>
          a.asset === plannedDevnet([]).tokens.dai && a.extra.assetTransferMethod === "permit2",
      ),
      "test DAI is offered through Permit2",
    );
    const dai = await payWith({ BASE_URL: url }, "/v1/hash?text=hi", "--token", "dai");
    assert.equal(dai.code, 0, dai.stderr + dai.stdout);
    assert.match(dai.stdout, /^HTTP 200$/m);
    assert.match(dai.stdout, /receipt: .*success: true/s);
  } finally {
    await running.close(true);
    await started.close();
  }
});
