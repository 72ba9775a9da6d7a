import type { Config } from "../runtime/config.ts";
import type { PaymentsContext, PaymentsPart } from "../runtime/server.ts";
import { createRateLimiter } from "../runtime/ratelimit.ts";
import { createRoutedFacilitator } from "./facilitator.ts";
import type { Facilitator } from "./facilitator-api.ts";
import type { RelayerSettings } from "./chain-family.ts";
import { chainFamilyOf } from "./chains.ts";
import { createX402Gate, type X402Gate } from "./offers.ts";
import { receiptAnswers } from "../receipts/answers.ts";
import { startBatchSettlement } from "./schemes/batch-settlement/start.ts";
import { createReconciler } from "../payment/reconcile.ts";
import { x402Fates } from "./schemes.ts";
import { armCrashPoints } from "../payment/crash-points.ts";
import { createJournal } from "../payment/journal.ts";
import { join } from "node:path";
import { networkOfV1Name } from "./requirements.ts";
import { readOptions, type ConfiguredOption } from "./options.ts";
import type { Authorization } from "../payment/payment.ts";
import { startDevnet, type Devnet } from "./devnet/index.ts";
import { devnetOption, devnetPermit2Option } from "./devnet/option.ts";
import { escrowProbe, facilitatorProbe } from "./probes.ts";
import type { SolanaDevnet } from "./devnet/solana.ts";
import type { Probe } from "../runtime/readiness.ts";

export interface Payments extends PaymentsPart {
  gate: X402Gate;
  /** The devnet started (the embedded default), with its accounts. */
  devnet?: Devnet & PaymentsPart["devnet"];
  /** The devnet's local Solana chain. */
  solana?: SolanaDevnet;
  /** Upstream base URLs the payment setup decides: the payment network's RPC. */
  upstreamUrls: Record<string, string>;
  /** Readiness checks of what settling needs: the chain's RPC, a remote facilitator. */
  probes: Record<string, Probe>;
  stop(): Promise<void>;
}

/** Every option's facilitator, built together; the options that cannot be built are named in one error. */
async function facilitatorsOf(configured: ConfiguredOption[], upto: boolean, relayer: RelayerSettings) {
  const built = await Promise.allSettled(
    configured.map((o) => chainFamilyOf(o.option.network).facilitator(o, upto, relayer)),
  );
  const problems = built.flatMap((b, i) =>
    b.status === "rejected"
      ? [`payment option "${configured[i].name}": ${(b.reason as Error)?.message ?? b.reason}`]
      : [],
  );
  if (problems.length) throw new Error(`Invalid payment options:\n  ${problems.join("\n  ")}`);
  return new Map(configured.map((o, i) => [o.option.network, (built[i] as PromiseFulfilledResult<Facilitator>).value]));
}

/** The embedded devnet runs unless payment options or a facilitator are configured. */
export const runsDevnet = (config: Config) =>
  config.payment.facilitator === "devnet" && !config.payment.optionEnv.X402_OPTIONS;

/**
 * Chooses how payments are taken: the devnet (the embedded default: anvil, our test USDC, the local
 * facilitator), or the configured options (options.ts), each with its own local relayer or remote facilitator.
 */
export async function createPayments(
  config: Config,
  { store, log, ledger, credits, contracts }: PaymentsContext,
): Promise<Payments> {
  const p = config.payment;
  let devnet: Devnet | undefined;
  let solana: SolanaDevnet | undefined;
  let configured: ConfiguredOption[];
  if (runsDevnet(config)) {
    // A block every 2 s as on Base, transactions still mined at once: the arcade's free plays wait for the next block.
    const started = await Promise.allSettled([
      startDevnet({ blockTime: 2, mixedMining: true, contracts }),
      import("./devnet/solana.ts").then((m) => m.startSolanaDevnet({ port: 8899 })),
    ]);
    if (started.some((s) => s.status === "rejected")) {
      await Promise.all(started.map((s) => (s.status === "fulfilled" ? s.value.stop() : undefined)));
      throw (started.find((s) => s.status === "rejected") as PromiseRejectedResult).reason;
    }
    devnet = (started[0] as PromiseFulfilledResult<Devnet>).value;
    solana = (started[1] as PromiseFulfilledResult<SolanaDevnet>).value;
    configured = [
      {
        name: "devnet",
        option: devnetOption(
          { network: devnet.network, usdc: devnet.usdc, payTo: devnet.accounts.payTo.address },
          {
            maxTimeoutSeconds: p.maxTimeoutSeconds,
            // Vouchers on by default: a newcomer's `npm run pay -- ... --scheme batch` works from a plain `npm start`.
            batchAuthorizer: (p.batchSettlement ?? true) ? devnet.accounts.payTo.address : undefined,
          },
        ),
        facilitator: { kind: "local", rpcUrl: devnet.rpcUrl, relayerKey: devnet.accounts.relayer.privateKey },
        rpcUrl: devnet.rpcUrl,
        batchAuthorizerKey: devnet.accounts.payTo.privateKey,
      },
      {
        name: "devnet-dai",
        option: devnetPermit2Option(
          { network: devnet.network, token: devnet.dai, payTo: devnet.accounts.payTo.address },
          { maxTimeoutSeconds: p.maxTimeoutSeconds },
        ),
        facilitator: { kind: "local", rpcUrl: devnet.rpcUrl, relayerKey: devnet.accounts.relayer.privateKey },
        rpcUrl: devnet.rpcUrl,
      },
      {
        name: "devnet-solana",
        option: {
          network: solana.network,
          asset: solana.usdc.address,
          payTo: solana.accounts.payTo.address,
          decimals: 6,
          extra: {},
          maxTimeoutSeconds: p.maxTimeoutSeconds,
        },
        facilitator: { kind: "local", rpcUrl: solana.rpcUrl, relayerKey: solana.accounts.feePayer.secretKey },
        rpcUrl: solana.rpcUrl,
      },
    ];
    log.warn(
      {
        rpcUrl: devnet.rpcUrl,
        token: devnet.usdc.address,
        permit2Token: devnet.dai.address,
        payTo: devnet.accounts.payTo.address,
        devPayer: devnet.accounts.payer.address,
      },
      "devnet: payments settle on a local anvil chain with test USDC; no real money is involved",
    );
    log.warn(
      {
        rpcUrl: solana.rpcUrl,
        mint: solana.usdc.address,
        payTo: solana.accounts.payTo.address,
        devPayer: solana.accounts.payer.address,
      },
      "devnet: Solana payments settle on a local in-process SVM (LiteSVM) with a test USDC mint; no real money is involved",
    );
  } else {
    configured = readOptions(p.optionEnv, p.maxTimeoutSeconds);
  }
  const facilitators = await facilitatorsOf(configured, p.upto ?? devnet !== undefined, {
    maxFeePerGas: p.relayerMaxFeePerGas,
    replaceAfterMs: p.relayerReplaceAfterMs,
    log,
  }).catch(async (error) => {
    await Promise.all([devnet?.stop(), solana?.stop()]);
    throw error;
  });
  const facilitator = createRoutedFacilitator(facilitators, networkOfV1Name);
  watchFeeWallets(configured);
  const options = configured.map((o) => o.option);
  const rpcUrls = Object.fromEntries(configured.flatMap((o) => (o.rpcUrl ? [[o.option.network, o.rpcUrl]] : [])));
  const provers = new Map(
    Object.entries(rpcUrls).flatMap(([network, url]) => {
      const prover = chainFamilyOf(network).contractSignatureProver?.(url);
      return prover ? [[network, prover] as const] : [];
    }),
  );
  // Without the chain's RPC, the option's facilitator proves a contract wallet's signature with its verify.
  const proveContractSignature = async (payment: Authorization) => {
    const prove = provers.get(payment.network);
    if (prove) return prove(payment);
    return (await facilitator.verify(payment.payload, payment.requirement).catch(() => ({ isValid: false }))).isValid;
  };
  // The arcade reads the payment chain: the first EVM option's.
  const rpcUrl = configured.find((o) => o.rpcUrl && chainFamilyOf(o.option.network).servesChainReads)?.rpcUrl;
  log.info(
    {
      options: configured.map((o) => ({
        name: o.name,
        network: o.option.network,
        asset: o.option.asset,
        payTo: o.option.payTo,
        facilitator: o.facilitator.kind,
      })),
    },
    "payment options",
  );

  const payerLimit = createRateLimiter(store, config.rateLimitPerMinute);
  armCrashPoints(p.crash.at, p.crash.trace);
  // Per port, so an instance restarted on its port replays what its predecessor journaled.
  const journal = createJournal({
    store,
    ledger,
    credits,
    log,
    file: join(config.dataDir, `x402-journal-${config.port}.jsonl`),
  });
  void journal.replayOnce();
  const paidGate = createX402Gate({
    options,
    baseUrl: config.baseUrl,
    facilitator,
    ledger,
    credits,
    store,
    log,
    journal,
    resolveAfterMs: p.resolveAfterMs,
    handlerTimeoutMs: config.handlerTimeoutMs,
    limitPayer: (payer) => payerLimit.hit(`payer:${payer}`),
    proveContractSignature,
    answers: receiptAnswers(config, store),
  });
  const rails = configured.flatMap((o) =>
    o.option.batch && o.batchAuthorizerKey ? [{ option: o.option, authorizerKey: o.batchAuthorizerKey }] : [],
  );
  const batch = rails.length
    ? await startBatchSettlement({
        rails,
        facilitator,
        storeUrl: config.storeUrl,
        claimSeconds: p.batchClaimSeconds,
        settleSeconds: p.batchSettleSeconds,
        gate: paidGate,
        credits,
        log,
        store,
        ledger,
        resolveAfterMs: p.resolveAfterMs,
        resolveEveryMs: p.reconcileMs,
      })
    : undefined;
  const gate = batch?.gate ?? paidGate;
  const reconciler = Object.keys(rpcUrls).length
    ? createReconciler({
        store,
        ledger,
        credits,
        rpcUrls,
        fates: x402Fates(),
        log,
        intervalMs: p.reconcileMs,
        resolveAfterMs: p.resolveAfterMs,
      })
    : undefined;
  if (reconciler) reconciler.start();
  const unreconciled = configured.filter((o) => !o.rpcUrl).map((o) => o.name);
  if (unreconciled.length)
    log.warn(
      { options: unreconciled },
      "no RPC URL for these payment options: their indeterminate settlements cannot be reconciled against the chain",
    );
  return {
    gate,
    devnet,
    solana,
    upstreamUrls: rpcUrl ? { "payment-chain": rpcUrl } : {},
    probes: { ...probesOf(configured), ...relayerProbesOf(configured, facilitators, p.relayerReplaceAfterMs) },
    async stop() {
      journal.stop();
      reconciler?.stop();
      await batch?.stop();
      await Promise.all([devnet?.stop(), solana?.stop()]);
    },
  };
}

/** The wallets whose native coin pays our settlements' fees (a local relayer, a local Solana fee payer), for /metrics. */
function watchFeeWallets(configured: ConfiguredOption[]) {
  for (const o of configured)
    if (o.facilitator.kind === "local")
      chainFamilyOf(o.option.network).watchFeeWallet(o as ConfiguredOption & { facilitator: { kind: "local" } });
}

/**
 * A relayer stalls when its oldest settlement is still not mined after two rounds of replacement: the calls
 * behind it would hang, so the instance says it is not ready, with how many wait and since when.
 */
function relayerProbesOf(
  configured: ConfiguredOption[],
  facilitators: Map<string, Facilitator>,
  replaceAfterMs: number,
) {
  const probes: Record<string, Probe> = {};
  configured.forEach((o, i) => {
    const backlog = facilitators.get(o.option.network)?.backlog;
    if (!backlog) return;
    probes[`relayer${i === 0 ? "" : `:${o.name}`}`] = async () => {
      const b = backlog();
      if (b.oldestMs > 2 * replaceAfterMs)
        throw new Error(
          `stalled: ${b.pending} settlements pending, the oldest (nonce ${b.oldestNonce}) for ${Math.round(b.oldestMs / 1000)} s`,
        );
    };
  });
  return probes;
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
    if (o.rpcUrl) probes[`payment-chain${suffix}`] = chainFamilyOf(o.option.network).probe(o.rpcUrl);
    if (o.rpcUrl && o.option.batch) probes[`batch-settlement${suffix}`] = escrowProbe(o.rpcUrl);
    const f = o.facilitator;
    if (f.kind === "remote" && !facilitators.has(f.url)) {
      facilitators.add(f.url);
      probes[`facilitator${facilitators.size === 1 ? "" : `:${o.name}`}`] = facilitatorProbe(f.url, f.auth);
    }
  });
  return probes;
}
