import * as v from "valibot";
import { BaseError, RpcRequestError, type Address, type Hex, type Log, type PublicClient } from "viem";
import { upstreamFailed } from "../../core/runtime/errors.ts";
import { chains, rpcUpstream } from "../_shared/chains.ts";

export interface LogQuery {
  /** One contract or several (eth_getLogs accepts a list). */
  address?: Address | Address[];
  topics: (Hex | Hex[] | null)[];
  fromBlock: bigint;
  toBlock: bigint;
}

/** The upstream of the chain the client reads. */
const nodeOf = (client: PublicClient) => {
  const chain = chains.find((c) => c.id === client.chain?.id);
  return chain ? rpcUpstream(chain.slug) : "node";
};

/** At most this many eth_getLogs requests per call, so a huge range on a strict node fails fast instead of hanging. */
const REQUEST_BUDGET = 48;
/** Public nodes commonly cap eth_getLogs at 10,000 blocks (some at fewer: those pages are halved). */
export const LOG_PAGE_BLOCKS = 10_000n;
/** The most blocks one call scans; older blocks are for a next call (`olderToBlock`). */
export const LOG_WINDOW_BLOCKS = 100_000n;

/** The answer's account of the blocks a call scanned (the newest of the range asked for) and where older ones resume. */
export const scannedBlocks = {
  fromBlock: v.pipe(v.number(), v.description("First block scanned")),
  toBlock: v.pipe(v.number(), v.description("Last block scanned")),
  olderToBlock: v.pipe(
    v.nullable(v.number()),
    v.description(
      "The range asked for goes further back: call again with toBlock set to this; null when all was scanned",
    ),
  ),
};

/** The blocks one call scans of the range asked for: the newest LOG_WINDOW_BLOCKS of it, and where older ones resume. */
export function logWindow(fromBlock: bigint, toBlock: bigint) {
  const start = toBlock - fromBlock + 1n > LOG_WINDOW_BLOCKS ? toBlock - LOG_WINDOW_BLOCKS + 1n : fromBlock;
  return { fromBlock: start, toBlock, olderToBlock: start > fromBlock ? start - 1n : null };
}

/** eth_getLogs over a range in pages of LOG_PAGE_BLOCKS, oldest first, sharing one request budget. */
export async function getLogsPaged(client: PublicClient, query: LogQuery): Promise<Log[]> {
  const budget = { left: REQUEST_BUDGET };
  const logs: Log[] = [];
  for (let from = query.fromBlock; from <= query.toBlock; from += LOG_PAGE_BLOCKS) {
    const to = from + LOG_PAGE_BLOCKS - 1n < query.toBlock ? from + LOG_PAGE_BLOCKS - 1n : query.toBlock;
    logs.push(...(await getLogsSplitting(client, { ...query, fromBlock: from, toBlock: to }, budget)));
  }
  return logs;
}

/**
 * eth_getLogs over a block range. Nodes cap ranges and result sizes differently and say so in their own words, so a
 * refused range is halved and retried until it fits or the request budget runs out (then a 502 asking for a
 * narrower range).
 */
export async function getLogsSplitting(
  client: PublicClient,
  query: LogQuery,
  budget = { left: REQUEST_BUDGET },
): Promise<Log[]> {
  const fetchRange = async (fromBlock: bigint, toBlock: bigint): Promise<Log[]> => {
    if (--budget.left < 0) {
      throw upstreamFailed(
        nodeOf(client),
        `the node refused the block range; ask for fewer blocks (it failed at ${fromBlock}-${toBlock})`,
      );
    }
    try {
      return await client
        .request({
          method: "eth_getLogs",
          params: [
            {
              address: query.address,
              topics: query.topics,
              fromBlock: `0x${fromBlock.toString(16)}`,
              toBlock: `0x${toBlock.toString(16)}`,
            },
          ],
        })
        .then((logs) => logs.map(normalize));
    } catch (error) {
      if (fromBlock === toBlock || !isRpcAnswer(error)) throw error;
      const middle = (fromBlock + toBlock) / 2n;
      const first = await fetchRange(fromBlock, middle);
      return first.concat(await fetchRange(middle + 1n, toBlock));
    }
  };
  return fetchRange(query.fromBlock, query.toBlock);
}

/**
 * A JSON-RPC error answer ("range too large", "missing trie node"): the node refused what was asked. A node that is
 * down, slow or answers HTTP errors is a node fault instead.
 */
export function isRpcAnswer(error: unknown): boolean {
  return error instanceof BaseError && error.walk((e) => e instanceof RpcRequestError) !== null;
}

type RpcLog = {
  address: Address;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex | null;
  transactionHash: Hex | null;
  logIndex: Hex | null;
  transactionIndex: Hex | null;
  blockHash: Hex | null;
  removed: boolean;
};

function normalize(log: RpcLog): Log {
  return {
    ...log,
    blockNumber: log.blockNumber === null ? null : BigInt(log.blockNumber),
    logIndex: log.logIndex === null ? null : Number(log.logIndex),
    transactionIndex: log.transactionIndex === null ? null : Number(log.transactionIndex),
  } as Log;
}

/** Turns `latest`, a number or a negative offset into a block number, given the head. */
export function resolveBlock(value: string | undefined, head: bigint, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  if (value === "latest" || value === "safe" || value === "finalized") return head;
  if (value === "earliest") return 0n;
  const n = BigInt(value);
  return n > head ? head : n;
}
