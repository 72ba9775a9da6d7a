import type { Logger } from "pino";
import type { Store } from "../endpoint.ts";
import type { Config } from "../runtime/config.ts";
import { createRateLimiter } from "../runtime/ratelimit.ts";
import { createCredits } from "./credits.ts";
import { createLocalFacilitator, createRemoteFacilitator, type Facilitator } from "./facilitator.ts";
import type { PaymentGate } from "./gate.ts";
import { createLedger } from "./ledger.ts";
import { createPaidGate } from "./paid-gate.ts";
import { createContractSignatureProver } from "./contract-signature.ts";
import { createReconciler } from "./reconcile.ts";
import type { PaymentOption } from "./requirements.ts";
import { startDevnet, type Devnet } from "./devnet/index.ts";
import { chainProbe, facilitatorProbe } from "./probes.ts";
import type { Probe } from "../runtime/readiness.ts";

export interface Payments {
  gate: PaymentGate;
  devnet?: Devnet;
  /** Upstream base URLs the payment setup decides: the payment network's RPC. */
  upstreamUrls: Record<string, string>;
  /** Readiness checks of what settling needs: the chain's RPC, a remote facilitator. */
  probes: Record<string, Probe>;
  stop(): Promise<void>;
}

/** The payment options the configuration describes (production: Base USDC). */
export function configuredOptions(config: Config, payTo: `0x${string}`): PaymentOption[] {
  const p = config.payment;
  return [{
    network: p.network as `eip155:${number}`,
    asset: p.asset,
    payTo,
    decimals: 6,
    extra: { name: p.assetName, version: p.assetVersion },
    maxTimeoutSeconds: p.maxTimeoutSeconds,
  }];
}

/**
 * Chooses how payments are taken: the devnet (the embedded default: anvil, our test USDC, the local
 * facilitator), a local facilitator on a real chain (RELAYER_KEY + RPC_URL), or a remote facilitator.
 */
export async function createPayments(config: Config, store: Store, log: Logger): Promise<Payments> {
  const p = config.payment;
  let devnet: Devnet | undefined;
  let facilitator: Facilitator;
  let options: PaymentOption[];
  let rpcUrl = p.rpcUrl;
  if (p.facilitator === "devnet") {
    // A block every 2 s as on Base, transactions still mined at once: the arcade's free plays wait for the next block.
    devnet = await startDevnet({ blockTime: 2, mixedMining: true });
    rpcUrl = devnet.rpcUrl;
    options = [{
      network: devnet.network,
      asset: devnet.usdc.address,
      payTo: devnet.accounts.payTo.address,
      decimals: devnet.usdc.decimals,
      extra: { name: devnet.usdc.name, version: devnet.usdc.version },
      maxTimeoutSeconds: p.maxTimeoutSeconds,
    }];
    facilitator = createLocalFacilitator({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, relayerKey: devnet.accounts.relayer.privateKey });
    log.warn({ rpcUrl: devnet.rpcUrl, token: devnet.usdc.address, payTo: devnet.accounts.payTo.address, devPayer: devnet.accounts.payer.address },
      "devnet: payments settle on a local anvil chain with test USDC; no real money is involved");
  } else {
    if (!p.payTo) throw new Error("PAY_TO is required when a facilitator is configured");
    options = configuredOptions(config, p.payTo);
    if (p.facilitator === "local") {
      if (!p.relayerKey || !p.rpcUrl) throw new Error("FACILITATOR=local needs RELAYER_KEY and RPC_URL");
      facilitator = createLocalFacilitator({ rpcUrl: p.rpcUrl, chainId: Number(p.network.split(":")[1]), relayerKey: p.relayerKey });
    } else {
      if (!p.facilitatorUrl) throw new Error("FACILITATOR=remote needs FACILITATOR_URL");
      facilitator = createRemoteFacilitator({ url: p.facilitatorUrl, auth: p.facilitatorAuth });
    }
  }

  const ledger = createLedger(store);
  const credits = createCredits(store);
  const payerLimit = createRateLimiter(store, config.rateLimitPerMinute);
  const gate = createPaidGate({
    options, baseUrl: config.baseUrl, facilitator, ledger, credits, log,
    limitPayer: (payer) => payerLimit.hit(`payer:${payer}`),
    proveContractSignature: rpcUrl ? createContractSignatureProver(rpcUrl) : undefined,
  });
  const reconciler = rpcUrl ? createReconciler({ store, ledger, credits, rpcUrl, log }) : undefined;
  if (reconciler) reconciler.start();
  else log.warn("no RPC_URL: indeterminate settlements cannot be reconciled against the chain");
  return {
    gate,
    devnet,
    upstreamUrls: rpcUrl ? { "payment-chain": rpcUrl } : {},
    probes: {
      ...(rpcUrl ? { "payment-chain": chainProbe(rpcUrl) } : {}),
      ...(p.facilitator === "remote" && p.facilitatorUrl ? { facilitator: facilitatorProbe(p.facilitatorUrl, p.facilitatorAuth) } : {}),
    },
    async stop() {
      reconciler?.stop();
      await devnet?.stop();
    },
  };
}
