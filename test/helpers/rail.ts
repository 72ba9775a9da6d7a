import pino from "pino";
import { createPublicClient, http, parseAbiItem, type Address } from "viem";
import { privateKeyToAccount, type LocalAccount } from "viem/accounts";
import { createRedisStore } from "../../core/runtime/redis-store.ts";
import { createLocalFacilitator, type Facilitator } from "../../core/x402/facilitator.ts";
import { startPaidService, type Devnet } from "./paid.ts";
import { probePlugin } from "./probe-plugin.ts";
import { challengeOf, v2Header } from "./sign.ts";

export type Paid = Awaited<ReturnType<typeof startPaidService>>;

const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
export const probeUrl = (echo = "") => `http://127.0.0.1:4021/v1/probe?echo=${echo}`;

/** The token's Transfer events to `to` (from `from`, when given) since `fromBlock`: what moved on-chain. */
export async function transfersTo(devnet: Devnet, to: Address, fromBlock: bigint, from?: Address) {
  const client = createPublicClient({ transport: http(devnet.rpcUrl) });
  if ((await client.getBlockNumber()) < fromBlock) return { count: 0, value: 0n };
  const logs = await client.getLogs({ address: devnet.usdc.address, event: transferEvent, args: { to, ...(from ? { from } : {}) }, fromBlock, toBlock: "latest" });
  return { count: logs.length, value: logs.reduce((sum, log) => sum + log.args.value!, 0n) };
}

export const blockNow = (devnet: Devnet) => createPublicClient({ transport: http(devnet.rpcUrl) }).getBlockNumber();

/** A paid call of the probe, signed by `account` against the challenge of the instance it is sent to. */
export async function payProbe(service: Paid, account: LocalAccount, echo = "") {
  const required = await challengeOf(service.fetch, probeUrl(echo));
  const { header, payload } = await v2Header(account, required);
  const res = await service.fetch(probeUrl(echo), { headers: { "payment-signature": header } });
  return { res, body: await res.json(), authorization: payload.authorization, header };
}

export interface InstanceOptions {
  /** A Redis shared with other instances; the memory store without it. */
  redisUrl?: string;
  /** Where this instance's facilitator reaches the chain (a proxy in front of the devnet, say). */
  rpcUrl?: string;
  confirmationTimeoutMs?: number;
  /** Wraps the facilitator this instance settles with. */
  facilitator?: (local: Facilitator) => Facilitator;
}

/** A paid service instance (on its own connection to a shared Redis, if given), settling with the devnet's relayer key. */
export async function startInstance(devnet: Devnet, options: InstanceOptions = {}) {
  const redis = options.redisUrl ? await createRedisStore(options.redisUrl, pino({ level: "silent" })) : undefined;
  const local = createLocalFacilitator({
    rpcUrl: options.rpcUrl ?? devnet.rpcUrl,
    chainId: devnet.chainId,
    relayerKey: devnet.accounts.relayer.privateKey,
    confirmationTimeoutMs: options.confirmationTimeoutMs,
  });
  const facilitator = options.facilitator ? options.facilitator(local) : local;
  const service = await startPaidService(devnet, { plugins: [probePlugin], store: redis, facilitator: () => facilitator });
  return {
    ...service,
    async close() {
      await service.close();
      await redis?.close();
    },
  };
}

export const accountOf = (devnet: Devnet, index: number) => privateKeyToAccount(devnet.accounts.others[index].privateKey);
