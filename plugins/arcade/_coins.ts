import type { Upstream } from "../../core/endpoint.ts";
import { upstreamFailed } from "../../core/runtime/errors.ts";

export interface Coin {
  id: string;
  symbol: string;
  name: string;
  marketCapUsd: number | null;
}

/** The coins' market caps in USD from CoinGecko, in the order asked. */
export async function marketCaps(api: Upstream, ids: string[]): Promise<Coin[]> {
  const rows = await api.json<{ id: string; symbol: string; name: string; market_cap: number | null }[]>(
    "/coins/markets",
    {
      query: { vs_currency: "usd", ids: ids.join(",") },
    },
  );
  if (!Array.isArray(rows)) throw upstreamFailed("coingecko", "CoinGecko coins/markets changed shape");
  return ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    if (!row || typeof row.market_cap !== "number" || row.market_cap <= 0)
      throw upstreamFailed("coingecko", `CoinGecko has no market cap for ${id}`);
    return { id, symbol: row.symbol, name: row.name, marketCapUsd: row.market_cap };
  });
}
