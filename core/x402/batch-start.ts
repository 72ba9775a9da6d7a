import { createClient } from "@keyv/redis";
import type { Network } from "@x402/core/types";
import { InMemoryChannelStorage, type ChannelStorage } from "@x402/evm/batch-settlement/server";
import { RedisChannelStorage, type RedisChannelStorageClient } from "@x402/evm/batch-settlement/server/redis-storage";
import type { Logger } from "pino";
import type { Address, Hex } from "viem";
import { withBatchSettlement } from "./batch-gate.ts";
import { createBatchSettlement, facilitatorClientOf } from "./batch-settlement.ts";
import type { Credits } from "./credits.ts";
import type { Facilitator } from "./facilitator.ts";
import type { PaymentGate } from "./gate.ts";
import type { PaymentOption } from "./requirements.ts";

export interface BatchStartOptions {
  option: PaymentOption;
  facilitator: Facilitator;
  authorizerKey: Hex;
  /** Channels live in Redis when the service has a shared store, so every instance sees one channel state. */
  storeUrl?: string;
  claimSeconds: number;
  settleSeconds: number;
  gate: PaymentGate;
  credits: Credits;
  log: Logger;
}

/** The option's batch-settlement rail, its gate in front of `gate`, and its claim and settle timers. */
export async function startBatchSettlement(o: BatchStartOptions) {
  const redis = o.storeUrl ? createClient({ url: o.storeUrl, disableOfflineQueue: true }) : undefined;
  if (redis) {
    redis.on("error", (err: Error) => o.log.error({ err }, "batch-settlement channel store"));
    await redis.connect();
  }
  const storage: ChannelStorage = redis
    ? new RedisChannelStorage({ client: redis as unknown as RedisChannelStorageClient, keyPrefix: "x402:batch" })
    : new InMemoryChannelStorage();
  const network = o.option.network as Network;
  const batch = createBatchSettlement({
    network,
    payTo: o.option.payTo as Address,
    asset: o.option.asset as Address,
    assetDomain: { name: o.option.extra.name, version: o.option.extra.version },
    decimals: o.option.decimals,
    facilitator: facilitatorClientOf(o.facilitator, network),
    authorizerKey: o.authorizerKey,
    withdrawDelaySeconds: o.option.batch?.withdrawDelay,
    storage,
  });
  await batch.ready;
  batch.start({
    // 0 turns a timer off (tests claim when they choose).
    claimIntervalSecs: o.claimSeconds || undefined,
    settleIntervalSecs: o.settleSeconds || undefined,
    onClaim: (r) => o.log.info({ vouchers: r.vouchers, transaction: r.transaction }, "batch-settlement claim"),
    onSettle: (r) => o.log.info({ transaction: r.transaction }, "batch-settlement settle"),
    onError: (err) => o.log.error({ err }, "batch-settlement claim or settle failed; retried on the next tick"),
  });
  return {
    batch,
    gate: withBatchSettlement(o.gate, { batch, credits: o.credits, log: o.log }),
    async stop() {
      // What was accepted is claimed before the service goes away.
      await batch.stop(true).catch((err: unknown) => o.log.error({ err }, "batch-settlement final claim failed"));
      await redis?.close();
    },
  };
}
