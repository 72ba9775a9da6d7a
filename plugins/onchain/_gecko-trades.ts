import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";

/** What the code reads of one swap in GeckoTerminal's `/networks/{network}/pools/{pool}/trades` (JSON:API, last 24 hours, newest first). */
const GeckoTrade = v.object({
  attributes: v.object({
    tx_hash: v.string(),
    tx_from_address: v.string(),
    block_timestamp: v.pipe(v.string(), v.isoTimestamp()),
    kind: v.picklist(["buy", "sell"]),
    volume_in_usd: v.string(),
  }),
});
const Trades = v.object({ data: v.array(GeckoTrade) });

export interface PoolTrade {
  pool: string;
  poolName: string;
  hash: string;
  trader: string;
  kind: "buy" | "sell";
  volumeUsd: string;
  time: string;
}

/** A pool's trades of at least `minUsd`, as GeckoTerminal filters them. */
export async function poolTrades(
  api: Upstream,
  network: string,
  pool: { pool: string; name: string },
  minUsd: number,
): Promise<PoolTrade[]> {
  const body = await api.json(`/networks/${network}/pools/${pool.pool}/trades`, Trades, {
    query: { trade_volume_in_usd_greater_than: minUsd },
  });
  return body.data.map(({ attributes: a }) => ({
    pool: pool.pool,
    poolName: pool.name,
    hash: a.tx_hash,
    trader: a.tx_from_address,
    kind: a.kind,
    volumeUsd: a.volume_in_usd,
    time: new Date(a.block_timestamp).toISOString(),
  }));
}
