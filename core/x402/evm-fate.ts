import { createPublicClient, http, type PublicClient } from "viem";
import type { Fate, FateReader } from "../payment/fate.ts";
import type { PendingSettlement } from "../payment/ledger.ts";
import type { LogWindow } from "./scheme.ts";

type EvmFateOf = (chain: PublicClient, record: PendingSettlement, latest: bigint, window: LogWindow) => Promise<Fate>;

/** An EVM scheme's fate reader: each pass reads its chain from the newest block, one client per RPC URL. */
export function evmFateReader(fateOf: EvmFateOf, window: LogWindow): FateReader {
  const chains = new Map<string, PublicClient>();
  return {
    async pass(rpcUrl) {
      let chain = chains.get(rpcUrl);
      if (!chain)
        chains.set(rpcUrl, (chain = createPublicClient({ transport: http(rpcUrl, { batch: true }) }) as PublicClient));
      const latest = await chain.getBlockNumber({ cacheTime: 0 });
      return (record) => fateOf(chain, record, latest, window);
    },
  };
}
