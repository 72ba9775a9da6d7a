import type { Logger } from "pino";
import type { Store } from "../endpoint.ts";
import type { Config } from "../runtime/config.ts";
import { createRateLimiter } from "../runtime/ratelimit.ts";
import { createCredits } from "./credits.ts";
import { createLocalFacilitator, createRemoteFacilitator, createRoutedFacilitator, type Facilitator } from "./facilitator.ts";
import type { PaymentGate } from "./gate.ts";
import { createLedger } from "./ledger.ts";
import { createPaidGate } from "./paid-gate.ts";
import { createContractSignatureProver } from "./contract-signature.ts";
import { createReconciler } from "./reconcile.ts";
import { networkOfV1Name } from "./requirements.ts";
import { readOptions, type ConfiguredOption } from "./options.ts";
import type { BoundPayment } from "./bind.ts";
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

/** How each configured option settles: a relayer on its chain, or its remote facilitator. */
function facilitatorOf(o: ConfiguredOption): Facilitator {
  const f = o.facilitator;
  if (f.kind === "remote") return createRemoteFacilitator({ url: f.url, auth: f.auth });
  return createLocalFacilitator({ rpcUrl: f.rpcUrl, chainId: Number(o.option.network.split(":")[1]), relayerKey: f.relayerKey as `0x${string}` });
}

/**
 * Chooses how payments are taken: the devnet (the embedded default: anvil, our test USDC, the local
 * facilitator), or the configured options (options.ts), each with its own local relayer or remote facilitator.
 */
export async function createPayments(config: Config, store: Store, log: Logger): Promise<Payments> {
  const p = config.payment;
  let devnet: Devnet | undefined;
  let configured: ConfiguredOption[];
  if (p.facilitator === "devnet" && !p.optionEnv.X402_OPTIONS) {
    devnet = await startDevnet();
    configured = [{
      name: "devnet",
      option: {
        network: devnet.network,
        asset: devnet.usdc.address,
        payTo: devnet.accounts.payTo.address,
        decimals: devnet.usdc.decimals,
        extra: { name: devnet.usdc.name, version: devnet.usdc.version },
        maxTimeoutSeconds: p.maxTimeoutSeconds,
      },
      facilitator: { kind: "local", rpcUrl: devnet.rpcUrl, relayerKey: devnet.accounts.relayer.privateKey },
      rpcUrl: devnet.rpcUrl,
    }];
    log.warn({ rpcUrl: devnet.rpcUrl, token: devnet.usdc.address, payTo: devnet.accounts.payTo.address, devPayer: devnet.accounts.payer.address },
      "devnet: payments settle on a local anvil chain with test USDC; no real money is involved");
  } else {
    configured = readOptions(p.optionEnv, p.maxTimeoutSeconds);
  }
  const options = configured.map((o) => o.option);
  const facilitator = createRoutedFacilitator(new Map(configured.map((o) => [o.option.network, facilitatorOf(o)])), networkOfV1Name);
  const rpcUrls = Object.fromEntries(configured.flatMap((o) => (o.rpcUrl ? [[o.option.network, o.rpcUrl]] : [])));
  const provers = new Map(Object.entries(rpcUrls).map(([network, url]) => [network, createContractSignatureProver(url)]));
  // Without the chain's RPC, the option's facilitator proves a contract wallet's signature with its verify.
  const proveContractSignature = async (payment: BoundPayment) => {
    const prove = provers.get(payment.network);
    if (prove) return prove(payment);
    return (await facilitator.verify(payment.payload, payment.requirement).catch(() => ({ isValid: false }))).isValid;
  };
  const rpcUrl = configured.find((o) => o.rpcUrl)?.rpcUrl;
  log.info({ options: configured.map((o) => ({ name: o.name, network: o.option.network, asset: o.option.asset, payTo: o.option.payTo, facilitator: o.facilitator.kind })) }, "payment options");

  const ledger = createLedger(store);
  const credits = createCredits(store);
  const payerLimit = createRateLimiter(store, config.rateLimitPerMinute);
  const gate = createPaidGate({
    options, baseUrl: config.baseUrl, facilitator, ledger, credits, log,
    limitPayer: (payer) => payerLimit.hit(`payer:${payer}`),
    proveContractSignature,
  });
  const reconciler = rpcUrl ? createReconciler({ store, ledger, credits, rpcUrls, log }) : undefined;
  if (reconciler) reconciler.start();
  const unreconciled = configured.filter((o) => !o.rpcUrl).map((o) => o.name);
  if (unreconciled.length) log.warn({ options: unreconciled }, "no RPC URL for these payment options: their indeterminate settlements cannot be reconciled against the chain");
  return {
    gate,
    devnet,
    upstreamUrls: rpcUrl ? { "payment-chain": rpcUrl } : {},
    probes: probesOf(configured),
    async stop() {
      reconciler?.stop();
      await devnet?.stop();
    },
  };
}

/**
 * Readiness of what settling needs: each option's chain RPC and each remote facilitator. The first option's
 * keep the names `payment-chain` and `facilitator`; the others add their option's name.
 */
function probesOf(configured: ConfiguredOption[]): Record<string, Probe> {
  const probes: Record<string, Probe> = {};
  const facilitators = new Set<string>();
  configured.forEach((o, i) => {
    const suffix = i === 0 ? "" : `:${o.name}`;
    if (o.rpcUrl) probes[`payment-chain${suffix}`] = chainProbe(o.rpcUrl);
    const f = o.facilitator;
    if (f.kind === "remote" && !facilitators.has(f.url)) {
      facilitators.add(f.url);
      probes[`facilitator${facilitators.size === 1 ? "" : `:${o.name}`}`] = facilitatorProbe(f.url, f.auth);
    }
  });
  return probes;
}
