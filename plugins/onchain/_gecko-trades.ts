import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { GECKOTERMINAL } from "../market/_dex.ts";

/** One swap in GeckoTerminal's `/networks/{network}/pools/{pool}/trades` (JSON:API, last 24 hours, newest first). */
interface GeckoTrade {
  id: string;
  type: string;
  attributes: {
    block_number: number;
    tx_hash: string;
    tx_from_address: string;
    from_token_amount: string;
    to_token_amount: string;
    price_from_in_usd: string;
    price_to_in_usd: string;
    block_timestamp: string;
    kind: "buy" | "sell";
    volume_in_usd: string;
    from_token_address: string;
    to_token_address: string;
  };
}

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
export async function poolTrades(api: Upstream, network: string, pool: { pool: string; name: string }, minUsd: number): Promise<PoolTrade[]> {
  const body = await api.json<{ data: GeckoTrade[] }>(`/networks/${network}/pools/${pool.pool}/trades`, { query: { trade_volume_in_usd_greater_than: minUsd } });
  if (!Array.isArray(body?.data)) throw upstreamFailed(GECKOTERMINAL, "GeckoTerminal trades changed shape");
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
