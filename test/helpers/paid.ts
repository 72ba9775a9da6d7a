import pino from "pino";
import { createPublicClient, http, type Hex } from "viem";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import type { Plugin, Store } from "../../core/endpoint.ts";
import { readConfig } from "../../core/runtime/config.ts";
import { createService } from "../../core/runtime/server.ts";
import { createMemoryStore } from "../../core/runtime/store.ts";
import { createLocalFacilitator, createRoutedFacilitator } from "../../core/x402/facilitator.ts";
import type { Facilitator } from "../../core/x402/facilitator-api.ts";
import { createX402Gate } from "../../core/x402/offers.ts";
import { receiptAnswers } from "../../core/receipts/answers.ts";
import { createReconciler } from "../../core/payment/reconcile.ts";
import { x402Fates } from "../../core/x402/schemes.ts";
import { createContractSignatureProver } from "../../core/x402/schemes/exact-eip3009/contract-signature.ts";
import { createRateLimiter } from "../../core/runtime/ratelimit.ts";
import { startDevnet, testUsdcAbi, type Devnet } from "../../core/x402/devnet/index.ts";
import { closedAfterTest } from "./service.ts";
import { networkOfV1Name, type PaymentOption } from "../../core/x402/requirements.ts";
import { startEvmChain, type EvmChain } from "../../core/x402/devnet/evm-chain.ts";
import { devnetOption, devnetPermit2Option } from "../../core/x402/devnet/option.ts";
import { startSolanaDevnet, type SolanaDevnet } from "../../core/x402/devnet/solana.ts";
import { createLocalSvmFacilitator } from "../../core/x402/schemes/exact-svm/facilitator.ts";

import { startBatchSettlement } from "../../core/x402/schemes/batch-settlement/start.ts";
export { startDevnet, startEvmChain, startSolanaDevnet, type Devnet, type EvmChain, type SolanaDevnet };

export interface PaidServiceOptions {
  plugins?: Plugin[];
  families?: string[];
  /** Wraps the real local facilitator, to make it fail on purpose. */
  facilitator?: (real: Facilitator) => Facilitator;
  store?: Store;
  /** The service's environment, families' settings included. */
  env?: Record<string, string>;
  /** Replaces part of a family's settings, by family. */
  settings?: Record<string, object>;
  /** Calls a minute per proven payer (the production gate's per-payer limit); none when unset. */
  payerLimitPerMinute?: number;
  /** Further local EVM chains offered after the devnet's, each settling through its own local facilitator. */
  chains?: EvmChain[];
  /** The local Solana chain, offered last, settling through @x402/svm's facilitator (confirmation timeout in ms). */
  solana?: SolanaDevnet;
  solanaConfirmationTimeoutMs?: number;
  /** The paid gate's clock (a test moves it past an authorization's life). */
  now?: () => number;
  /**
   * Also take batch-settlement vouchers on every EVM chain; channels in Redis at `storeUrl`, else in memory; claims
   * and refunds signed by `authorizers[network]` (a chain's payTo key by default). Claims wait for the test.
   */
  batch?: { storeUrl?: string; authorizers?: Record<string, string> };
  /** Also take upto Permit2 authorizations on every EVM chain's pay-as-used routes, settled by its relayer. */
  upto?: boolean;
  /** Also offer the devnet's test DAI (no EIP-3009): `exact` through Permit2, after the chains' options. */
  permit2?: boolean;
  /** Offer the devnet's test USDC (which has EIP-2612 `permit`) with `exact` through Permit2 instead of EIP-3009. */
  usdcThroughPermit2?: boolean;
  /** The decimals the devnet's option counts its token in (X402_<NAME>_DECIMALS); 6 by default, as USDC. */
  decimals?: number;
  /** The one loopback port the egress guard lets through (a local test target). */
  egressLoopbackPort?: number;
}

/** The option the local Solana chain offers: its test USDC to the dev payTo, fee payer the dev fee payer. */
export function solanaOption(solana: SolanaDevnet): PaymentOption {
  return {
    network: solana.network,
    asset: solana.usdc.address,
    payTo: solana.accounts.payTo.address,
    decimals: 6,
    extra: { feePayer: solana.accounts.feePayer.address },
    maxTimeoutSeconds: 300,
  };
}

/** The real service with the real payment gate, settling on a devnet started by the test file. */
export async function startPaidService(devnet: Devnet, options: PaidServiceOptions = {}) {
  const config = readConfig({
    BASE_URL: "http://127.0.0.1:4021",
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "0",
    JOBS: "off",
    ...(options.families ? { PLUGINS: options.families.join(",") } : {}),
    ...options.env,
  });
  const log = pino({ level: "silent" });
  const store = options.store ?? createMemoryStore();
  const chains = [devnet, ...(options.chains ?? [])];
  const byNetwork = new Map<string, Facilitator>(
    chains.map((c) => [
      c.network,
      createLocalFacilitator({ rpcUrl: c.rpcUrl, chainId: c.chainId, relayerKey: c.accounts.relayer.privateKey }),
    ]),
  );
  const { solana } = options;
  if (solana) {
    byNetwork.set(
      solana.network,
      createLocalSvmFacilitator({
        rpcUrl: solana.rpcUrl,
        network: solana.network,
        feePayer: solana.accounts.feePayer.signer,
        confirmationTimeoutMs: options.solanaConfirmationTimeoutMs,
      }),
    );
  }
  const real = createRoutedFacilitator(byNetwork, networkOfV1Name);
  const facilitator = options.facilitator ? options.facilitator(real) : real;
  const payerLimit = options.payerLimitPerMinute ? createRateLimiter(store, options.payerLimitPerMinute) : undefined;
  const provers = new Map<string, ReturnType<typeof createContractSignatureProver>>(
    chains.map((c) => [c.network, createContractSignatureProver(c.rpcUrl)]),
  );
  const prove = (payment: Parameters<ReturnType<typeof createContractSignatureProver>>[0]) =>
    provers.get(payment.network)!(payment);
  const contractProofs = { count: 0 };
  // Vouchers on every EVM chain; claims authorized by each chain's payTo key unless the test names another.
  const authorizerOf = (c: Devnet | EvmChain) =>
    (options.batch?.authorizers?.[c.network] ?? c.accounts.payTo.privateKey) as `0x${string}`;
  const offered = (c: Devnet | EvmChain) =>
    options.usdcThroughPermit2 && c === devnet
      ? devnetPermit2Option({ network: c.network, token: c.usdc, payTo: c.accounts.payTo.address })
      : offeredThrough3009(c);
  const offeredThrough3009 = (c: Devnet | EvmChain) => ({
    ...devnetOption(
      { network: c.network, usdc: c.usdc, payTo: c.accounts.payTo.address },
      { batchAuthorizer: options.batch && privateKeyToAccount(authorizerOf(c)).address },
    ),
    ...(options.decimals && c === devnet ? { decimals: options.decimals } : {}),
    ...(options.upto ? { upto: { facilitatorAddress: c.accounts.relayer.address } } : {}),
  });
  let batch: Awaited<ReturnType<typeof startBatchSettlement>> | undefined;
  const service = closedAfterTest(
    await createService({
      config,
      log,
      store,
      plugins: options.plugins,
      settings: options.settings,
      egressLoopbackPort: options.egressLoopbackPort,
      payments: async ({ ledger, credits }) => {
        const dai = devnetPermit2Option({
          network: devnet.network,
          token: devnet.dai,
          payTo: devnet.accounts.payTo.address,
        });
        const offeredOptions = [
          ...chains.map(offered),
          ...(options.permit2 ? [dai] : []),
          ...(solana ? [solanaOption(solana)] : []),
        ];
        const gate = createX402Gate({
          options: offeredOptions,
          baseUrl: config.baseUrl,
          facilitator,
          ledger,
          credits,
          store,
          log,
          limitPayer: payerLimit && ((payer) => payerLimit.hit(`payer:${payer}`)),
          proveContractSignature: (payment) => (contractProofs.count++, prove(payment)),
          now: options.now,
          answers: receiptAnswers(config, store),
        });
        if (!options.batch) return { gate };
        batch = await startBatchSettlement({
          rails: chains.map((c, i) => ({ option: offeredOptions[i], authorizerKey: authorizerOf(c) })),
          facilitator,
          storeUrl: options.batch.storeUrl,
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
    }),
  );
  const { ledger, credits } = service.runtime;
  const reconciler = createReconciler({
    store,
    fates: x402Fates(),
    ledger,
    credits,
    rpcUrls: Object.fromEntries([...chains, ...(solana ? [solana] : [])].map((c) => [c.network, c.rpcUrl])),
    log,
  });
  const fetchApp = (async (input: RequestInfo | URL, init?: RequestInit) =>
    service.app.fetch(new Request(input, init))) as typeof fetch;
  return {
    ...service,
    store,
    credits,
    ledger,
    reconciler,
    contractProofs,
    batch: batch?.batches.get(devnet.network),
    batches: batch?.batches,
    fetch: fetchApp,
    baseUrl: config.baseUrl,
  };
}

export function chainReader(devnet: Devnet | EvmChain) {
  const client = createPublicClient({ transport: http(devnet.rpcUrl) });
  return {
    balance: (address: Hex) =>
      client.readContract({
        address: devnet.usdc.address,
        abi: testUsdcAbi,
        functionName: "balanceOf",
        args: [address],
      }) as Promise<bigint>,
    client,
  };
}

export const freshAccount = () => privateKeyToAccount(generatePrivateKey());

/** The environment of a service process that settles on `devnet` itself (its relayer, its test USDC). */
export const localRailEnv = (devnet: Devnet): Record<string, string> => ({
  FACILITATOR: "local",
  RPC_URL: devnet.rpcUrl,
  RELAYER_KEY: devnet.accounts.relayer.privateKey,
  PAY_TO: devnet.accounts.payTo.address,
  X402_NETWORK: devnet.network,
  X402_ASSET: devnet.usdc.address,
  X402_ASSET_NAME: devnet.usdc.name,
  X402_ASSET_VERSION: devnet.usdc.version,
  SERVICE_SIGNING_KEY: `0x${"5e".repeat(32)}`,
});
