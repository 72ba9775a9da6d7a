import { x402ResourceServer, type FacilitatorClient } from "@x402/core/server";
import type { Network, PaymentPayload, PaymentRequirements } from "@x402/core/types";
import {
  BatchSettlementEvmScheme,
  type AutoSettlementConfig,
  type ChannelStorage,
} from "@x402/evm/batch-settlement/server";
import type { Address, Hex } from "viem";
import { createClaims } from "./claims.ts";
import type { Facilitator } from "../../facilitator-api.ts";
import { minDepositOf } from "../../requirements.ts";
import { privateKeyToAccount } from "viem/accounts";
import { createVoucherCheck, voucherReasons, voucherSignerOf, type HeldVoucher } from "./voucher.ts";

export interface BatchSettlementOptions {
  network: Network;
  payTo: Address;
  asset: Address;
  /** The token's EIP-712 domain (`name`, `version`), which deposits sign against. */
  assetDomain: { name: string; version: string };
  decimals: number;
  facilitator: FacilitatorClient;
  /** Signs claims and refunds as every channel's `receiverAuthorizer`. */
  authorizerKey: Hex;
  /** Channels across instances (Redis); in memory when absent. */
  storage?: ChannelStorage;
  withdrawDelaySeconds?: number;
}

/**
 * The rail's facilitator as @x402/core's server expects one. It settles batch-settlement on `network` (the local
 * facilitator registers the scheme) and names no receiverAuthorizer: the service signs as its own.
 */
export function facilitatorClientOf(facilitator: Facilitator, network: Network): FacilitatorClient {
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => ({
      kinds: [{ x402Version: 2, scheme: "batch-settlement", network }],
      extensions: [],
      signers: {},
    }),
  } as FacilitatorClient;
}

/**
 * The `batch-settlement` scheme on one network, built on @x402/evm's server scheme: vouchers are checked
 * against the channel state in `storage` (no chain I/O for a plain voucher), deposits and refunds go
 * through the facilitator; accepted vouchers are claimed many channels a transaction (batch-claims.ts) and the
 * channel manager settles what was claimed.
 */
export function createBatchSettlement(o: BatchSettlementOptions) {
  const authorizer = privateKeyToAccount(o.authorizerKey);
  const scheme = new BatchSettlementEvmScheme(o.payTo, {
    storage: o.storage,
    withdrawDelay: o.withdrawDelaySeconds,
    receiverAuthorizerSigner: {
      address: authorizer.address,
      signTypedData: (params) => authorizer.signTypedData(params as Parameters<typeof authorizer.signTypedData>[0]),
    },
  });
  const server = new x402ResourceServer(o.facilitator).register(o.network, scheme);
  const manager = scheme.createChannelManager(o.facilitator, o.network, o.asset);
  const ready = server.initialize();
  const checkLocally = createVoucherCheck(scheme, Number(o.network.split(":")[1]));
  let jobs: AutoSettlementConfig = {};
  const claims = createClaims(manager, scheme.getStorage(), (err) => jobs.onError?.(err), o.network);
  let claimTimer: NodeJS.Timeout | undefined;
  let claiming = false;

  /**
   * Reserves a payment's increment on its channel. The everyday voucher is checked here (voucher.ts); a
   * deposit, a refund and anything the local check leaves go through the scheme's server, whose hooks keep the
   * same channel records. A payer's refund request runs nothing: `refund()` settles it. A channel whose payer
   * started a withdrawal takes no payment (the withdrawal would take it back before a later claim); what it was
   * charged before is claimed at once, before the withdrawal's deadline.
   */
  async function hold(payload: PaymentPayload, requirement: PaymentRequirements): Promise<Hold> {
    const local = await checkLocally(payload.payload, requirement);
    if (local) return local;
    const verified = await server.verifyPayment(payload, requirement);
    if (!verified.isValid) return { refused: verified.invalidReason ?? "invalid_payment" };
    if (verified.skipHandler) return { refund: true };
    const cancel = server.createPaymentCancellationDispatcher(payload, requirement);
    const release = async () => {
      await cancel.cancel({ reason: "handler_failed" });
    };
    const { channelConfig, voucher } = payload.payload as unknown as ChannelPayload;
    if (Number(verified.extra?.withdrawRequestedAt ?? 0) > 0) {
      await release();
      await claims.channel(voucher.channelId).catch((err: unknown) => jobs.onError?.(err));
      return { refused: voucherReasons.withdrawalPending };
    }
    return {
      payer: voucherSignerOf(channelConfig),
      release,
      commit: (amount) => server.settlePayment(payload, requirement, undefined, undefined, { amount }),
    };
  }

  async function claimTick() {
    if (claiming) return;
    claiming = true;
    try {
      for (const result of await claims.all()) jobs.onClaim?.(result);
    } catch (err) {
      jobs.onError?.(err);
    } finally {
      claiming = false;
    }
  }

  async function claimAndSettle() {
    const claimed = await claims.all();
    return { claims: claimed, settle: claimed.length ? await manager.settle() : undefined };
  }

  return {
    scheme,
    server,
    manager,
    ready,
    /** The route's batch-settlement requirement for `amount` atomic units. */
    async requirements(amount: string, maxTimeoutSeconds = 300): Promise<PaymentRequirements> {
      await ready;
      const [requirement] = await server.buildPaymentRequirements({
        scheme: "batch-settlement",
        network: o.network,
        payTo: o.payTo,
        price: { amount, asset: o.asset, extra: { ...o.assetDomain } },
        // Atomic units, as the 402 of every route writes it (requirements.ts).
        extra: { minDeposit: minDepositOf(amount, o.decimals) },
        maxTimeoutSeconds,
      });
      return requirement;
    },
    hold,
    /** Settles a payer's cooperative refund through the facilitator. */
    refund: (payload: PaymentPayload, requirement: PaymentRequirements) => server.settlePayment(payload, requirement),
    /** Claims every channel charged beyond its claim (batch-claims.ts), then sweeps what was claimed to payTo. */
    claimAndSettle,
    /** Claims every `claimIntervalSecs` (ours, not the manager's all-or-nothing claim) and settles as the manager does. */
    start(config: AutoSettlementConfig) {
      const { claimIntervalSecs, ...settling } = config;
      jobs = config;
      manager.start(settling);
      if (claimIntervalSecs) claimTimer = setInterval(claimTick, claimIntervalSecs * 1000);
    },
    async stop(flush = false) {
      clearInterval(claimTimer);
      await manager.stop();
      if (flush) await claimAndSettle();
    },
  };
}

export type BatchSettlement = ReturnType<typeof createBatchSettlement>;

/** What a voucher or deposit payload names: its channel, and the voucher signed on it. */
interface ChannelPayload {
  channelConfig: { payer: `0x${string}`; payerAuthorizer: `0x${string}` };
  voucher: { channelId: string };
}

/** A held voucher, a payer's refund request, or the scheme's reason for refusing the payment. */
export type Hold = HeldVoucher | { refund: true } | { refused: string };
