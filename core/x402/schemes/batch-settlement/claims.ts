import type { BatchSettlementChannelManager, ChannelStorage } from "@x402/evm/batch-settlement/server";
import { metrics } from "../../../runtime/prometheus.ts";

type Channel = NonNullable<Awaited<ReturnType<ChannelStorage["get"]>>>;
export type ClaimResult = Awaited<ReturnType<BatchSettlementChannelManager["claim"]>>[number];

/** The channel manager's own batch size: one claim transaction carries at most this many channels. */
const MAX_CHANNELS_PER_CLAIM = 100;

const idOf = (c: Channel) => c.channelId.toLowerCase();
const unclaimed = (c: Channel) => BigInt(c.chargedCumulativeAmount) > BigInt(c.totalClaimed);

/**
 * Claims what channels were charged, many channels a transaction, through the channel manager. The escrow takes a
 * claim whole or not at all, so one channel it can no longer pay (its payer withdrew before the claim) would stop
 * every claim after it: a claim that fails is split in halves until the channels that fail are alone. Those are
 * tried alone on later passes, outside the others' claim, until one succeeds (a failed claim is a refused
 * simulation: no transaction, no gas).
 */
export function createClaims(
  manager: BatchSettlementChannelManager,
  storage: ChannelStorage,
  onError: (err: unknown) => void,
  network = "",
) {
  const failing = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();

  async function claimTogether(channels: Channel[]): Promise<ClaimResult[]> {
    try {
      const results = await manager.claim({ maxClaimsPerBatch: channels.length, selectClaimChannels: () => channels });
      for (const c of channels) failing.delete(idOf(c));
      for (const r of results) metrics.vouchersClaimed.inc({ network }, r.vouchers);
      return results;
    } catch (err) {
      if (channels.length > 1) {
        const half = Math.ceil(channels.length / 2);
        return [...(await claimTogether(channels.slice(0, half))), ...(await claimTogether(channels.slice(half)))];
      }
      if (!failing.has(idOf(channels[0]))) onError(err);
      failing.add(idOf(channels[0]));
      return [];
    }
  }

  async function claim(channels: Channel[]): Promise<ClaimResult[]> {
    const due = channels.filter(unclaimed);
    const healthy = due.filter((c) => !failing.has(idOf(c)));
    const results: ClaimResult[] = [];
    for (let i = 0; i < healthy.length; i += MAX_CHANNELS_PER_CLAIM)
      results.push(...(await claimTogether(healthy.slice(i, i + MAX_CHANNELS_PER_CLAIM))));
    for (const c of due.filter((c) => failing.has(idOf(c)))) results.push(...(await claimTogether([c])));
    return results;
  }

  /** One claim at a time in a process, so each reads what the one before it claimed. */
  function serial<T>(run: () => Promise<T>): Promise<T> {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    /** Claims every channel charged beyond what it has claimed. */
    all: () => serial(async () => claim(await storage.list())),
    /** Claims one channel now: its payer started a withdrawal, which takes what is not claimed by its deadline. */
    channel: (channelId: string) =>
      serial(async () => {
        const channel = await storage.get(channelId);
        return channel ? claim([channel]) : [];
      }),
  };
}
