import * as v from "valibot";
import { formatEther, getAddress, TransactionNotFoundError, TransactionReceiptNotFoundError, type Hex } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { chainField } from "../_shared/chains.ts";
import { decodeCalldata, decodeStandardEvent, lookupSignatures, selectorOf } from "./_decode.ts";
import { txHashField } from "../_shared/onchain-inputs.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";
import { Method, Transfer, TxEvent } from "./_tx-shapes.ts";

export default defineEndpoint({
  name: "tx",
  method: "GET",
  price: "$0.01",
  mcp: true,
  summary:
    "A decoded transaction: status, block and time, fee, the method called with its arguments, token transfers and events",
  description:
    "Transaction, receipt and block come from the chain's node. Token transfers and approvals (ERC-20, ERC-721) are decoded locally; other method selectors and event topics are named from Sourcify's signature database, and arguments are decoded only when a signature re-encodes to the exact calldata. A pending transaction has no receipt: status pending. An unknown hash is a 404.",
  input: v.object({ hash: txHashField("Transaction hash"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    hash: v.string(),
    status: v.picklist(["success", "reverted", "pending"]),
    block: v.nullable(v.number()),
    timestamp: v.pipe(v.nullable(v.string()), v.description("Block time, ISO 8601 UTC")),
    from: v.string(),
    to: v.pipe(v.nullable(v.string()), v.description("null for a contract creation")),
    contractCreated: v.nullable(v.string()),
    nonce: v.number(),
    value: v.pipe(v.string(), v.description("Wei, decimal string")),
    valueNative: v.pipe(v.string(), v.description("In the chain's native coin")),
    gasUsed: v.nullable(v.string()),
    effectiveGasPrice: v.pipe(v.nullable(v.string()), v.description("Wei per gas")),
    feeNative: v.pipe(
      v.nullable(v.string()),
      v.description("gasUsed x effectiveGasPrice in the native coin (L1 data fee excluded)"),
    ),
    method: v.nullable(Method),
    transfers: v.array(Transfer),
    events: v.array(TxEvent),
  }),
  example: {
    input: { hash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060", chain: "ethereum" },
    output: {
      chain: "ethereum",
      hash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
      status: "success",
      block: 46147,
      timestamp: "2015-08-07T03:30:33.000Z",
      from: "0xA1E4380A3B1f749673E270229993eE55F35663b4",
      to: "0x5DF9B87991262F6BA471F09758CDE1c0FC1De734",
      contractCreated: null,
      nonce: 0,
      value: "31337",
      valueNative: "0.000000000000031337",
      gasUsed: "21000",
      effectiveGasPrice: "50000000000000",
      feeNative: "1.05",
      method: null,
      transfers: [],
      events: [],
    },
  },
  upstreams: [...NODES, "sourcify-4byte"],
  async handler({ input, upstream }) {
    const hash = input.hash as Hex;
    const { tx, receipt, block } = await readNode(upstream, input.chain, async (client) => {
      const tx = await client.getTransaction({ hash }).catch((error) => {
        if (error instanceof TransactionNotFoundError) throw notFound(`no transaction ${hash} on ${input.chain}`);
        throw error;
      });
      const receipt =
        tx.blockNumber === null
          ? null
          : await client.getTransactionReceipt({ hash }).catch((error) => {
              if (error instanceof TransactionReceiptNotFoundError) return null;
              throw error;
            });
      const block = tx.blockNumber === null ? null : await client.getBlock({ blockNumber: tx.blockNumber });
      return { tx, receipt, block };
    });

    const logs = receipt?.logs ?? [];
    const standard = logs.map((log) => decodeStandardEvent(log));
    const selector = tx.to && tx.input.length >= 10 ? (selectorOf(tx.input).toLowerCase() as Hex) : undefined;
    const unknownTopics = logs.filter((log, i) => !standard[i] && log.topics[0]).map((log) => log.topics[0]!);
    const names = await lookupSignatures(upstream("sourcify-4byte"), selector ? [selector] : [], unknownTopics);
    const method = selector ? decodeCalldata(tx.input, names.functions.get(selector) ?? [])[0] : undefined;

    return {
      chain: input.chain,
      hash,
      status: receipt ? receipt.status : ("pending" as const),
      block: tx.blockNumber === null ? null : Number(tx.blockNumber),
      timestamp: block ? new Date(Number(block.timestamp) * 1000).toISOString() : null,
      from: getAddress(tx.from),
      to: tx.to ? getAddress(tx.to) : null,
      contractCreated: receipt?.contractAddress ? getAddress(receipt.contractAddress) : null,
      nonce: tx.nonce,
      value: tx.value.toString(),
      valueNative: formatEther(tx.value),
      gasUsed: receipt ? receipt.gasUsed.toString() : null,
      effectiveGasPrice: receipt ? receipt.effectiveGasPrice.toString() : null,
      feeNative: receipt ? formatEther(receipt.gasUsed * receipt.effectiveGasPrice) : null,
      method: selector
        ? {
            selector,
            signature: method?.signature ?? names.functions.get(selector)?.[0] ?? null,
            args: method?.args ?? null,
          }
        : null,
      transfers: standard.flatMap((event, i) =>
        event?.name === "Transfer"
          ? [
              {
                standard: event.standard,
                token: getAddress(logs[i].address),
                from: String(event.args.from),
                to: String(event.args.to),
                value: event.standard === "erc20" ? String(event.args.value) : null,
                tokenId: event.standard === "erc721" ? String(event.args.tokenId) : null,
              },
            ]
          : [],
      ),
      events: logs.map((log, i) => ({
        logIndex: log.logIndex,
        address: getAddress(log.address),
        topic0: log.topics[0] ?? null,
        signature:
          standard[i]?.signature ??
          (log.topics[0] ? (names.events.get(log.topics[0].toLowerCase())?.[0] ?? null) : null),
        args: standard[i]?.args ?? null,
      })),
    };
  },
});
