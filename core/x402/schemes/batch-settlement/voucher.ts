import { randomUUID } from "node:crypto";
import type { PaymentRequirements, SettleResponse } from "@x402/core/types";
import type { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/server";
import { getAddress, type Hex } from "viem";
import { recoverSigner, voucherDigester } from "../../signature.ts";
import { remembered } from "../../../shared.ts";

type Channel = NonNullable<Awaited<ReturnType<ReturnType<BatchSettlementEvmScheme["getStorage"]>["get"]>>>;
type ChannelConfig = Channel["channelConfig"];

interface VoucherPayload {
  type: "voucher";
  channelConfig: ChannelConfig;
  voucher: { channelId: string; maxClaimableAmount: string; signature: string };
}

/** A voucher held on its channel: the increment is reserved until the call commits what it used or releases it. */
export interface HeldVoucher {
  /** Who the call runs as: the key that signed the voucher (voucherSignerOf). */
  payer: string;
  commit(amount: string): Promise<SettleResponse>;
  release(): Promise<void>;
}

/** The scheme's reasons, as its client reads them (a mismatch makes the client resync from the 402). */
export const voucherReasons = {
  signature: "invalid_batch_settlement_evm_voucher_signature",
  overBalance: "invalid_batch_settlement_evm_cumulative_exceeds_balance",
  belowClaimed: "invalid_batch_settlement_evm_cumulative_below_claimed",
  mismatch: "invalid_batch_settlement_evm_cumulative_amount_mismatch",
  busy: "invalid_batch_settlement_evm_channel_busy",
  overCap: "invalid_batch_settlement_evm_charge_exceeds_signed_cumulative",
  withdrawalPending: "invalid_batch_settlement_evm_withdrawal_pending",
} as const;

const zeroAddress = "0x0000000000000000000000000000000000000000";
const MIN_PENDING_MS = 5_000;
const MAX_PENDING_MS = 600_000;

const sameAddress = (a: unknown, b: unknown) =>
  typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

/**
 * The identity a voucher proves: the key whose signature it carries, the channel's payerAuthorizer (its payer when
 * it names none, as the escrow reads it). Never the payer alone: anyone may fund a channel that names any payer,
 * through a deposit collector of its own, and sign its vouchers with a key of its own.
 */
export const voucherSignerOf = (config: Pick<ChannelConfig, "payer" | "payerAuthorizer">) =>
  checksummed(sameAddress(config.payerAuthorizer, zeroAddress) ? config.payer : config.payerAuthorizer);

/** viem's getAddress hashes in JavaScript (10 µs a voucher in perf); a channel's vouchers name one signer every time. */
const checksums = remembered<`0x${string}`>(4096);
const checksummed = (address: string) => checksums(address, () => getAddress(address));

function isVoucherPayload(raw: unknown): raw is VoucherPayload {
  const p = raw as VoucherPayload;
  return (
    p?.type === "voucher" &&
    typeof p.channelConfig === "object" &&
    p.channelConfig !== null &&
    typeof p.voucher?.channelId === "string" &&
    typeof p.voucher.signature === "string" &&
    /^\d+$/.test(p.voucher.maxClaimableAmount)
  );
}

/** The payload's channel config is the one stored with the channel (whose id was bound to it at deposit). */
function sameConfig(stored: ChannelConfig, sent: ChannelConfig) {
  return (
    sameAddress(stored.payer, sent.payer) &&
    sameAddress(stored.payerAuthorizer, sent.payerAuthorizer) &&
    sameAddress(stored.receiver, sent.receiver) &&
    sameAddress(stored.receiverAuthorizer, sent.receiverAuthorizer) &&
    sameAddress(stored.token, sent.token) &&
    stored.withdrawDelay === sent.withdrawDelay &&
    sameAddress(stored.salt, sent.salt)
  );
}

/** The channel still pays this route's receiver, in its token, under its authorizer and withdraw delay. */
function fitsRequirement(config: ChannelConfig, requirement: PaymentRequirements) {
  const extra = (requirement.extra ?? {}) as { receiverAuthorizer?: string; withdrawDelay?: number | string };
  return (
    sameAddress(config.receiver, requirement.payTo) &&
    sameAddress(config.receiverAuthorizer, extra.receiverAuthorizer) &&
    sameAddress(config.token, requirement.asset) &&
    (extra.withdrawDelay === undefined || config.withdrawDelay === Number(extra.withdrawDelay))
  );
}

/**
 * The everyday voucher, checked as @x402/evm's server checks it locally (same channel rules, same storage
 * records, same reasons) but with the signature recovered natively: a plain voucher on a channel whose on-chain
 * state this service read recently, from a config identical to the one stored with the channel. Anything else
 * (a deposit, a refund, a channel not held or gone stale, a config that differs, a withdrawal pending) returns
 * undefined and takes the scheme's own path, which reads the chain when it must.
 */
export function createVoucherCheck(scheme: BatchSettlementEvmScheme, chainId: number) {
  const storage = scheme.getStorage();
  const voucherDigest = voucherDigester(chainId);

  return async function check(
    raw: unknown,
    requirement: PaymentRequirements,
  ): Promise<HeldVoucher | { refused: string } | undefined> {
    if (!isVoucherPayload(raw)) return undefined;
    const { channelConfig: config, voucher } = raw;
    const now = Date.now();
    const channel = await storage.get(voucher.channelId);
    if (!channel || channel.onchainSyncedAt === undefined) return undefined;
    if (now - channel.onchainSyncedAt > scheme.getOnchainStateTtlMs()) return undefined;
    // Refused on the scheme's path (batch-settlement.ts), which also claims the channel at once.
    if (channel.withdrawRequestedAt) return undefined;
    if (sameAddress(config.payerAuthorizer, zeroAddress)) return undefined;
    if (!sameAddress(channel.channelId, voucher.channelId) || !sameConfig(channel.channelConfig, config))
      return undefined;
    if (!fitsRequirement(config, requirement)) return undefined;

    const price = BigInt(requirement.amount);
    const max = BigInt(voucher.maxClaimableAmount);
    if (max !== BigInt(channel.chargedCumulativeAmount) + price) return { refused: voucherReasons.mismatch };
    const digest = voucherDigest(channel.channelId as Hex, max);
    const signer = digest && recoverSigner(digest, voucher.signature);
    if (!sameAddress(signer, config.payerAuthorizer)) return { refused: voucherReasons.signature };
    if (max > BigInt(channel.balance)) return { refused: voucherReasons.overBalance };
    if (max <= BigInt(channel.totalClaimed)) return { refused: voucherReasons.belowClaimed };

    const pendingId = randomUUID();
    const ttl = Math.min(MAX_PENDING_MS, Math.max(MIN_PENDING_MS, requirement.maxTimeoutSeconds * 1000));
    let refused: string | undefined;
    await storage.updateChannel(channel.channelId, (current) => {
      if (!current) refused = voucherReasons.mismatch;
      else if (current.pendingRequest && current.pendingRequest.expiresAt > now) refused = voucherReasons.busy;
      else if (BigInt(current.chargedCumulativeAmount) + price !== max) refused = voucherReasons.mismatch;
      if (refused || !current) return current;
      const pendingRequest = { pendingId, signedMaxClaimable: voucher.maxClaimableAmount, expiresAt: now + ttl };
      return { ...current, lastRequestTimestamp: now, pendingRequest };
    });
    if (refused) return { refused };

    const release = async () => {
      await storage.updateChannel(channel.channelId, (current) =>
        current?.pendingRequest?.pendingId === pendingId ? { ...current, pendingRequest: undefined } : current,
      );
    };

    const commit = async (amount: string): Promise<SettleResponse> => {
      let failure: string | undefined;
      let previous: Channel | undefined;
      let charged = "";
      await storage.updateChannel(channel.channelId, (current) => {
        if (current?.pendingRequest?.pendingId !== pendingId) {
          failure = voucherReasons.busy;
          return current;
        }
        const next = BigInt(current.chargedCumulativeAmount) + BigInt(amount);
        if (next > max) {
          failure = voucherReasons.overCap;
          return { ...current, pendingRequest: undefined };
        }
        previous = current;
        charged = next.toString();
        return {
          ...current,
          chargedCumulativeAmount: charged,
          signedMaxClaimable: voucher.maxClaimableAmount,
          signature: voucher.signature,
          lastRequestTimestamp: Date.now(),
          pendingRequest: undefined,
        };
      });
      if (failure || !previous)
        return { success: false, errorReason: failure, transaction: "", network: requirement.network };
      return {
        success: true,
        payer: previous.channelConfig.payer.toLowerCase(),
        transaction: "",
        network: requirement.network,
        amount: "",
        extra: {
          channelState: {
            channelId: previous.channelId,
            balance: previous.balance,
            totalClaimed: previous.totalClaimed,
            withdrawRequestedAt: previous.withdrawRequestedAt,
            refundNonce: String(previous.refundNonce),
            chargedCumulativeAmount: charged,
          },
          chargedAmount: amount,
        },
      } as SettleResponse;
    };

    return { payer: voucherSignerOf(config), commit, release };
  };
}
