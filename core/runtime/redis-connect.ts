import { createClient, createCluster, type RedisClientType, type RedisClusterType } from "@keyv/redis";

/**
 * One Redis server's client, or a Redis Cluster's, which sends each command to the master holding its key's slot.
 * Both take the single-key commands and scripts the store and the channel store send; what spans every key
 * (a scan) goes through `scan`.
 */
export type RedisClient = RedisClientType | RedisClusterType;

export interface RedisConnection {
  client: RedisClient;
  cluster: boolean;
  /** Batches of the keys matching `MATCH`, from every master of a cluster. */
  scan(options: { MATCH: string; COUNT?: number; TYPE?: string }): AsyncIterable<string[]>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Called with each failure (a down server reports every reconnect attempt). */
  onError(error: Error): void;
  /** Called when a lost connection is back. */
  onReady?(): void;
}

const socket = { connectTimeout: 5000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000) };

/**
 * Connects to the Redis at `url`, finding out whether it is a Redis Cluster node (`cluster_enabled:1`), so the
 * same `STORE_URL` form (redis:// or rediss://, with user and password) names either. Commands fail at once while
 * Redis is unreachable rather than queueing, and the client reconnects.
 */
export async function connectRedis(url: string, o: ConnectOptions): Promise<RedisConnection> {
  const single = createClient({ url, disableOfflineQueue: true, socket });
  single.on("error", o.onError);
  if (o.onReady) single.on("ready", o.onReady);
  await single.connect();
  const info = await single.info("cluster").catch(() => "");
  if (!/^cluster_enabled:1/m.test(info)) {
    return {
      client: single as RedisClientType,
      cluster: false,
      scan: (options) => single.scanIterator(options),
      close: async () => {
        if (single.isOpen) await single.close();
      },
    };
  }
  await single.close();
  const { username, password, protocol, pathname } = new URL(url);
  if (pathname.length > 1 && pathname !== "/0") throw new Error("STORE_URL: a Redis Cluster has only database 0");
  const cluster = createCluster({
    rootNodes: [{ url }],
    // Nodes found from the first one connect as it did: same credentials, same TLS.
    defaults: {
      username: decodeURIComponent(username) || undefined,
      password: decodeURIComponent(password) || undefined,
      disableOfflineQueue: true,
      socket: { ...socket, tls: protocol === "rediss:" },
    },
  });
  cluster.on("error", o.onError);
  cluster.on("node-error", o.onError);
  if (o.onReady) cluster.on("node-ready", o.onReady);
  await cluster.connect();
  return {
    client: cluster as RedisClusterType,
    cluster: true,
    async *scan(options) {
      for (const master of cluster.masters) yield* (await cluster.nodeClient(master)).scanIterator(options);
    },
    close: async () => {
      if (cluster.isOpen) await cluster.close();
    },
  };
}
