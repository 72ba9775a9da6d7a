import * as v from "valibot";
import { decodeEventLog, parseAbiItem, toEventSelector, type AbiEvent, type Hex, type Log } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { chainField } from "../_shared/chains.ts";
import { decodeStandardEvent, toJson, type Json } from "./_decode.ts";
import { addressField, blockField, checksummed, limitField } from "../_shared/onchain-inputs.ts";
import { getLogsPaged, logWindow, resolveBlock, scannedBlocks } from "./_logs.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";

const DEFAULT_SPAN = 10_000n;
const JsonValue = v.pipe(
  v.unknown(),
  v.description("Decoded value: integers as decimal strings, addresses checksummed"),
);

export default defineEndpoint({
  name: "event-logs",
  method: "GET",
  price: "$0.01",
  summary:
    "Event logs a contract emitted in a block range, decoded by the event signature you give (or as ERC-20/721 events)",
  description:
    "eth_getLogs on the chain's node. `event` is a Solidity event declaration such as Transfer(address indexed from, address indexed to, uint256 value); only its logs are returned, decoded. Without it every log of the contract is returned, ERC-20 and ERC-721 events decoded. The range defaults to the last 10,000 blocks; one call scans at most its newest 100,000 blocks, in pages of 10,000 that public nodes accept (a page the node still refuses is split), and `olderToBlock` says where to resume. `fromBlock` and `toBlock` in the answer are the blocks scanned. The most recent `limit` logs are kept.",
  input: v.object({
    address: addressField("Contract that emitted the logs"),
    chain: chainField(),
    event: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(500),
        v.regex(
          /^[A-Za-z_$][\w$]*\(.*\)$/,
          "must look like Transfer(address indexed from, address indexed to, uint256 value)",
        ),
        v.description("Event declaration to filter and decode by"),
      ),
    ),
    fromBlock: v.optional(blockField("First block; default toBlock - 9,999")),
    toBlock: v.optional(blockField("Last block"), "latest"),
    limit: limitField(100, 1000, "Most recent logs to return"),
  }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    ...scannedBlocks,
    total: v.pipe(v.number(), v.description("Logs found in the blocks scanned")),
    truncated: v.pipe(v.boolean(), v.description("true when more than `limit` were found (the oldest dropped)")),
    logs: v.array(
      v.object({
        block: v.number(),
        txHash: v.string(),
        logIndex: v.number(),
        topics: v.array(v.string()),
        data: v.string(),
        event: v.pipe(v.nullable(v.string()), v.description("Event name, null when not decoded")),
        args: v.nullable(v.record(v.string(), JsonValue)),
      }),
    ),
  }),
  example: {
    input: {
      address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      chain: "ethereum",
      event: "Approval(address indexed owner, address indexed spender, uint256 value)",
      fromBlock: "21640000",
      toBlock: "21640000",
      limit: 1,
    },
    output: {
      chain: "ethereum",
      address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      fromBlock: 21640000,
      toBlock: 21640000,
      olderToBlock: null,
      total: 3,
      truncated: true,
      logs: [
        {
          block: 21640000,
          txHash: "0x3b2c64d2d6c7c0d1d5f2d6f3a1e1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3",
          logIndex: 211,
          topics: [
            "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925",
            "0x0000000000000000000000007a250d5630b4cf539739df2c5dacb4c659f2488d",
            "0x000000000000000000000000000000000022d473030f116ddee9f6b43ac78ba3",
          ],
          data: "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
          event: "Approval",
          args: {
            owner: "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D",
            spender: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
            value: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
          },
        },
      ],
    },
  },
  cacheTtl: 30,
  upstreams: NODES,
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const event = input.event ? parseEvent(input.event) : undefined;
    return readNode(upstream, input.chain, async (client) => {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const toBlock = resolveBlock(input.toBlock, head, head);
      const fromBlock = resolveBlock(input.fromBlock, head, toBlock >= DEFAULT_SPAN ? toBlock - DEFAULT_SPAN + 1n : 0n);
      if (fromBlock > toBlock)
        throw badRequest("fromBlock is after toBlock", {
          issues: [{ field: "fromBlock", message: "must not be after toBlock" }],
        });
      const scanned = logWindow(fromBlock, toBlock);
      const logs = await getLogsPaged(client, {
        address,
        topics: event ? [toEventSelector(event)] : [],
        fromBlock: scanned.fromBlock,
        toBlock,
      });
      const kept = logs.slice(-input.limit);
      return {
        chain: input.chain,
        address,
        fromBlock: Number(scanned.fromBlock),
        toBlock: Number(toBlock),
        olderToBlock: scanned.olderToBlock === null ? null : Number(scanned.olderToBlock),
        total: logs.length,
        truncated: logs.length > kept.length,
        logs: kept.map((log) => ({
          block: Number(log.blockNumber),
          txHash: log.transactionHash ?? "",
          logIndex: log.logIndex ?? 0,
          topics: log.topics,
          data: log.data,
          ...decode(log, event),
        })),
      };
    });
  },
});

function parseEvent(declaration: string): AbiEvent {
  try {
    return parseAbiItem(`event ${declaration}`) as AbiEvent;
  } catch {
    throw badRequest("event is not a valid Solidity event declaration", {
      issues: [{ field: "event", message: "not a valid event declaration" }],
    });
  }
}

function decode(log: Log, event: AbiEvent | undefined): { event: string | null; args: Record<string, Json> | null } {
  if (!event) {
    const standard = decodeStandardEvent(log);
    return standard ? { event: standard.name, args: standard.args } : { event: null, args: null };
  }
  try {
    const decoded = decodeEventLog({
      abi: [event],
      data: log.data,
      topics: log.topics as [Hex, ...Hex[]],
      strict: true,
    });
    const args = Array.isArray(decoded.args)
      ? Object.fromEntries(decoded.args.map((a, i) => [String(i), a]))
      : decoded.args;
    return { event: decoded.eventName ?? event.name, args: toJson(args) as Record<string, Json> };
  } catch {
    return { event: null, args: null };
  }
}
