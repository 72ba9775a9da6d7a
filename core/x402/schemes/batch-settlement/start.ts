import type { Network } from "@x402/core/types";
import type { ChannelStorage } from "@x402/evm/batch-settlement/server";
import { RedisChannelStorage, type RedisChannelStorageClient } from "@x402/evm/batch-settlement/server/redis-storage";
import type { Logger } from "pino";
import { connectRedis, type RedisConnection } from "../../../runtime/redis-connect.ts";
import type { Address, Hex } from "viem";
import { voucherWay } from "./gate.ts";
import { createBatchSettlement, facilitatorClientOf, type BatchSettlement } from "./settlement.ts";
import type { Credits } from "../../../payment/credits.ts";
import type { Facilitator } from "../../facilitator-api.ts";
import type { X402PaidGate } from "../../offers.ts";
import type { PaymentOption } from "../../requirements.ts";
import type { Store } from "../../../endpoint.ts";
import type { Ledger } from "../../../payment/ledger.ts";
import { createVoucherInFlight, type ChannelJudge } from "./voucher-in-flight.ts";
import { createChannelsInMemory } from "./channels-in-memory.ts";

/** An option that takes vouchers, and the key that signs its claims and refunds as every channel's receiver authorizer. */
export interface BatchRail {
  option: PaymentOption;
  authorizerKey: Hex;
}

export interface BatchStartOptions {
  rails: BatchRail[];
  facilitator: Facilitator;
  /** Channels live in Redis when the service has a shared store, so every instance sees one channel state. */
  storeUrl?: string;
  claimSeconds: number;
  settleSeconds: number;
  /** The paid gate the vouchers register into: their answers leave through it, as every paid answer does. */
  gate: X402PaidGate;
  credits: Credits;
  log: Logger;
  store: Store;
  ledger: Ledger;
  /** How long a voucher's write-ahead record waits for its own process before another one finishes it. */
  resolveAfterMs?: number;
  /** How often records left by a dead process are looked for (and once at start). */
  resolveEveryMs?: number;
}

/** Each option's batch-settlement rail, one gate in front of `gate` for all of them, and their claim and settle timers. */
export async function startBatchSettlement(o: BatchStartOptions) {
  const redis = o.storeUrl
    ? await connectRedis(o.storeUrl, { onError: (err) => o.log.error({ err }, "batch-settlement channel store") })
    : undefined;
  // A store per network: the channel manager claims every channel its store lists, on its own chain.
  const storageOf = (network: string): ChannelStorage =>
    redis
      ? new RedisChannelStorage({ client: channelClient(redis), keyPrefix: `x402:batch:${network}` })
      : createChannelsInMemory();
  const batches = new Map<string, BatchSettlement>();
  for (const { option, authorizerKey } of o.rails) {
    const network = option.network as Network;
    const batch = createBatchSettlement({
      network,
      payTo: option.payTo as Address,
      asset: option.asset as Address,
      assetDomain: { name: option.extra.name, version: option.extra.version },
      decimals: option.decimals,
      facilitator: facilitatorClientOf(o.facilitator, network),
      authorizerKey,
      withdrawDelaySeconds: option.batch?.withdrawDelay,
      storage: storageOf(network),
    });
    await batch.ready;
    // A voucher is taken on chain state read up to the freshness window ago, and a withdrawal started right after
    // that read takes whatever is still unclaimed once the withdraw delay has passed.
    const claimWithinSeconds = batch.scheme.getWithdrawDelay() - batch.scheme.getOnchainStateTtlMs() / 1000;
    if (!o.claimSeconds || o.claimSeconds >= claimWithinSeconds)
      o.log.warn(
        { network, claimSeconds: o.claimSeconds, claimWithinSeconds },
        "batch-settlement claims run less often than a payer's withdrawal can take unclaimed vouchers",
      );
    batch.start({
      // 0 turns a timer off (tests claim when they choose).
      claimIntervalSecs: o.claimSeconds || undefined,
      settleIntervalSecs: o.settleSeconds || undefined,
      onClaim: (r) =>
        o.log.info({ network, vouchers: r.vouchers, transaction: r.transaction }, "batch-settlement claim"),
      onSettle: (r) => o.log.info({ network, transaction: r.transaction }, "batch-settlement settle"),
      onError: (err) =>
        o.log.error({ err, network }, "batch-settlement claim or settle failed; retried on the next tick"),
    });
    batches.set(network, batch);
  }
  const { store, ledger, credits, log } = o;
  const inFlight = createVoucherInFlight({ store, ledger, credits, log, resolveAfterMs: o.resolveAfterMs });
  const judgeOf = (network: string): ChannelJudge | undefined => {
    const batch = batches.get(network);
    return batch && channelJudge(batch.scheme.getStorage());
  };
  o.gate.register(voucherWay(o.gate, { batches, credits, log, store, inFlight }));
  const resolveStale = () =>
    inFlight.resolveStale(judgeOf).catch((err: unknown) => log.error({ err }, "vouchers in flight not resolved"));
  void resolveStale();
  const resolver = setInterval(resolveStale, o.resolveEveryMs ?? 30_000);
  resolver.unref();
  return {
    batches,
    inFlight,
    resolveStale: () => inFlight.resolveStale(judgeOf),
    gate: o.gate,
    async stop() {
      clearInterval(resolver);
      // What was accepted is claimed before the service goes away.
      for (const [network, batch] of batches)
        await batch
          .stop(true)
          .catch((err: unknown) => o.log.error({ err, network }, "batch-settlement final claim failed"));
      await redis?.close();
    },
  };
}

/**
 * Whether a voucher held for `max` was committed: its hold is dropped in the same update (the process that held it
 * can never commit it after this), and the channel's charge is read. A channel's commits wait while its voucher's
 * record is unresolved, so a charge past `before` is this voucher's.
 */
const channelJudge = (storage: ChannelStorage): ChannelJudge => ({
  async settle(channelId, max, before) {
    let charged: bigint | undefined;
    await storage.updateChannel(channelId, (current) => {
      if (!current) return current;
      charged = BigInt(current.chargedCumulativeAmount);
      const pending = current.pendingRequest;
      return pending && BigInt(pending.signedMaxClaimable) === BigInt(max)
        ? { ...current, pendingRequest: undefined }
        : current;
    });
    return charged === undefined ? undefined : charged > before;
  },
});

/** The commands the channel store sends, each on one key, and its list of channels scanned from every master. */
const channelClient = ({ client, scan }: RedisConnection) =>
  ({
    get: (key: string) => client.get(key),
    set: (key: string, value: string, options?: object) => client.set(key, value, options),
    del: (key: string) => client.del(key),
    eval: (script: string, options: { keys: string[]; arguments: string[] }) => client.eval(script, options),
    scanIterator: scan,
  }) as RedisChannelStorageClient;
