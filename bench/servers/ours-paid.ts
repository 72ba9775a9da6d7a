import { serve } from "h3";
import pino from "pino";
import { readConfig } from "../../core/runtime/config.ts";
import { createService } from "../../core/runtime/server.ts";
import { createLocalFacilitator } from "../../core/x402/facilitator.ts";
import type { Facilitator } from "../../core/x402/facilitator-api.ts";
import { createX402Gate } from "../../core/x402/offers.ts";
import { devnetOption } from "../../core/x402/devnet/option.ts";
import { startBatchSettlement } from "../../core/x402/schemes/batch-settlement/start.ts";
import { announceReady, portFromEnv } from "./announce.ts";
import { devnetFromEnv } from "./devnet-env.ts";

/**
 * Our service with the real paid gate and the real local facilitator, pointed at the devnet the bench
 * process started (it starts none of its own), like test/helpers/paid.ts builds it. The gate's ledger and
 * credits live in the service's store: memory, or Redis when STORE_URL is set (several instances then share it).
 * SETTLE=stub keeps the real verify but answers every settlement with success without touching the chain.
 * BATCH=on also takes batch-settlement vouchers (payTo's key authorizes claims; claims wait for shutdown).
 * CREDIT_CODE with CREDIT_FUNDS (atomic units) funds that credit code at start: a paid call with no signature.
 */
const port = portFromEnv();
const devnet = devnetFromEnv();
const config = readConfig(process.env);
const log = pino({ level: config.logLevel });
const option = devnetOption(
  {
    network: `eip155:${devnet.chainId}`,
    usdc: { address: devnet.asset, name: devnet.assetName, version: devnet.assetVersion, decimals: 6 },
    payTo: devnet.payTo,
  },
  { batchAuthorizer: process.env.BATCH === "on" ? devnet.payTo : undefined },
);
// The relayer's warnings (a settlement replaced, or held at the fee cap) go to stdout whatever LOG_LEVEL says: the bench counts them.
const real = createLocalFacilitator({
  rpcUrl: devnet.rpcUrl,
  chainId: devnet.chainId,
  relayerKey: devnet.relayerKey,
  replaceAfterMs: config.payment.relayerReplaceAfterMs,
  maxFeePerGas: config.payment.relayerMaxFeePerGas,
  log: pino({ level: "warn" }),
});
const facilitator = process.env.SETTLE === "stub" ? withStubbedSettlement(real) : real;
const service = await createService({
  config,
  log,
  payments: async ({ ledger, credits, store }) => {
    const gate = createX402Gate({
      options: [option],
      baseUrl: config.baseUrl,
      facilitator,
      ledger,
      credits,
      store,
      log,
    });
    if (process.env.CREDIT_CODE) await credits.fund(process.env.CREDIT_CODE, BigInt(process.env.CREDIT_FUNDS ?? "0"));
    if (!option.batch) return { gate };
    const batch = await startBatchSettlement({
      rails: [{ option, authorizerKey: devnet.payToKey }],
      facilitator,
      claimSeconds: 0,
      settleSeconds: 0,
      gate,
      credits,
      log,
      store,
      ledger,
    });
    return { gate: batch.gate, stop: batch.stop };
  },
});
const server = serve(service.app, { port, hostname: "127.0.0.1", silent: true });
await server.ready();
announceReady(config.baseUrl, async () => {
  await server.close();
  await service.close();
});

/** Verify only: settlement answers success at once, no transaction is sent (a benchmark-harness stub). */
function withStubbedSettlement(inner: Facilitator): Facilitator {
  return {
    verify: (payload, requirements) => inner.verify(payload, requirements),
    settle: async (_payload, requirements) => ({
      success: true,
      transaction: `0x${"0".repeat(64)}`,
      network: (requirements as { network: string }).network,
    }),
  };
}
