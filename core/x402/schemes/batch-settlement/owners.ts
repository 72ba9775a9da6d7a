import type { PaymentPayload } from "@x402/core/types";
import type { HeldChannel, Store } from "../../../endpoint.ts";
import { createWalletIndex, walletKey } from "../../../payment/wallet-index.ts";
import type { BatchSettlement } from "./settlement.ts";

type Channel = NonNullable<Awaited<ReturnType<ReturnType<BatchSettlement["scheme"]["getStorage"]>["get"]>>>;

const yearMs = 365 * 24 * 3600 * 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * Each wallet's voucher channels, for its signed-in read: a deposit (which opens or tops up a channel, signed by
 * its payer) lists the channel to its payer and its payer's authorizer; the read takes each channel's state from
 * the channel store, as vouchers leave it.
 */
export function createChannelOwners(store: Store, batches: ReadonlyMap<string, BatchSettlement>) {
  const index = createWalletIndex(store, "channels", { max: 100, ttlMs: yearMs });

  function view(network: string, c: Channel): HeldChannel {
    const { payer, payerAuthorizer, receiver, token, withdrawDelay } = c.channelConfig;
    const requested = Number(c.withdrawRequestedAt ?? 0);
    return {
      network,
      channelId: c.channelId.toLowerCase(),
      asset: token,
      payer,
      payerAuthorizer,
      receiver,
      balance: c.balance,
      charged: c.chargedCumulativeAmount,
      claimed: c.totalClaimed,
      withdrawDelay,
      withdrawal: requested > 0 ? { requestedAt: iso(requested), finishableAt: iso(requested + withdrawDelay) } : null,
    };
  }

  return {
    /**
     * A held deposit's channel, listed to the wallets that pay from it; undefined (nothing to wait for) when the
     * payload is no deposit, as every everyday voucher is.
     */
    deposited(payload: PaymentPayload, network: string): Promise<void> | undefined {
      const inner = payload.payload as {
        type?: string;
        channelConfig?: Channel["channelConfig"];
        voucher?: { channelId: string };
      };
      if (inner.type !== "deposit" || !inner.channelConfig || !inner.voucher) return undefined;
      const entry = `${network} ${inner.voucher.channelId.toLowerCase()}`;
      const { payer, payerAuthorizer } = inner.channelConfig;
      return (async () => {
        for (const wallet of new Set([walletKey(payer), walletKey(payerAuthorizer)])) await index.add(wallet, entry);
      })();
    },
    /** The channels `wallet` pays from, as the channel store holds them now. */
    async of(wallet: string): Promise<HeldChannel[]> {
      const own = walletKey(wallet);
      const channels = await Promise.all(
        (await index.list(own)).map(async (entry) => {
          const [network, channelId] = entry.split(" ");
          const channel = await batches.get(network)?.scheme.getStorage().get(channelId);
          const { payer, payerAuthorizer } = channel?.channelConfig ?? {};
          return channel && [payer, payerAuthorizer].some((w) => w && walletKey(w) === own)
            ? view(network, channel)
            : undefined;
        }),
      );
      return channels.filter((c) => c !== undefined);
    },
  };
}
