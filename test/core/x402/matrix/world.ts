import pino from "pino";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createRedisStore, type RedisStore } from "../../../../core/runtime/redis-store.ts";
import type { EvmChain } from "../../../../core/x402/devnet/evm-chain.ts";
import { startDecimalsChain } from "../../../helpers/decimals-chain.ts";
import {
  startDevnet,
  startPaidService,
  startSolanaDevnet,
  type Devnet,
  type SolanaDevnet,
} from "../../../helpers/paid.ts";
import { startRedis } from "../../../helpers/redis.ts";
import { startRpcProxy } from "../../../helpers/rpc-proxy.ts";
import { evmSide, solanaSide, type EvmSide, type SolanaSide } from "./chains.ts";
import { matrixPlugin } from "./plugin.ts";

export type Instance = Awaited<ReturnType<typeof startPaidService>> & {
  /** The MCP SDK client connected to this instance's /mcp. */
  mcp: Client;
  /** Resolves once every request this instance was handed (over HTTP or MCP) has been answered. */
  idle(): Promise<void>;
};

/**
 * One world for every cell: the EVM devnet (6-decimal token), a second EVM chain whose token has 18 decimals, the
 * local Solana chain, and two instances of the service on one redis-server taking every way to pay (exact v1 and
 * v2, upto, vouchers on both EVM chains, Solana, credit codes, MCP). Each instance reaches each chain through a
 * counting JSON-RPC proxy, so what a payment costs us on a chain is read off the proxy.
 */
export interface World {
  devnet: Devnet;
  chain18: EvmChain;
  solana: SolanaDevnet;
  evm: EvmSide;
  evm18: EvmSide;
  /** The devnet's test DAI (18 decimals, no EIP-3009), paid with exact through Permit2. */
  evmDai: EvmSide;
  svm: SolanaSide;
  one: Instance;
  two: Instance;
  instances: [Instance, Instance];
  stop(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const [devnet, chain18, solana, redis] = await Promise.all([
    startDevnet(),
    startDecimalsChain(18),
    startSolanaDevnet(),
    startRedis(),
  ]);
  const [proxy, proxy18, proxySvm] = await Promise.all([
    startRpcProxy(devnet.rpcUrl),
    startRpcProxy(chain18.rpcUrl),
    startRpcProxy(solana.rpcUrl),
  ]);
  const stores: RedisStore[] = [];
  const start = async (): Promise<Instance> => {
    const store = await createRedisStore(redis.url, pino({ level: "silent" }));
    stores.push(store);
    const service = await startPaidService(
      { ...devnet, rpcUrl: proxy.url },
      {
        plugins: [matrixPlugin],
        store,
        chains: [{ ...chain18, rpcUrl: proxy18.url }],
        solana: { ...solana, rpcUrl: proxySvm.url },
        solanaConfirmationTimeoutMs: 3000,
        batch: { storeUrl: redis.url },
        upto: true,
        permit2: true,
      },
    );
    return withClients(service);
  };
  const one = await start();
  const two = await start();
  const sides = {
    evm: evmSide(devnet, proxy, one),
    evm18: evmSide(chain18, proxy18, one),
    evmDai: evmSide({ ...devnet, usdc: { ...devnet.dai, version: "" } } as unknown as Devnet, proxy, one),
    svm: solanaSide(solana, proxySvm),
  };
  return {
    devnet,
    chain18,
    solana,
    ...sides,
    one,
    two,
    instances: [one, two],
    async stop() {
      for (const instance of [one, two]) {
        await instance.mcp.close();
        await instance.close();
      }
      for (const store of stores) await store.close();
      await Promise.all([proxy.close(), proxy18.close(), proxySvm.close()]);
      await Promise.all([devnet.stop(), chain18.stop(), solana.stop(), redis.stop()]);
    },
  };
}

/** The instance's fetch, remembering every answer still on its way, and an MCP client over it. */
async function withClients(service: Awaited<ReturnType<typeof startPaidService>>): Promise<Instance> {
  const pending = new Set<Promise<Response>>();
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const answer = Promise.resolve(service.app.fetch(new Request(input, init)));
    pending.add(answer);
    void answer.finally(() => pending.delete(answer)).catch(() => undefined);
    return answer;
  }) as typeof globalThis.fetch;
  const mcp = new Client({ name: "attack-matrix", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`), { fetch }));
  return {
    ...service,
    fetch,
    mcp,
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
