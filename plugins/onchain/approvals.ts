import * as v from "valibot";
import { erc721Abi, getAddress, maxUint256, pad, toEventSelector, type Address } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { currentApprovals, revokeCall, type Grant } from "./_approvals.ts";
import { chainField } from "../_shared/chains.ts";
import { decodeStandardEvent } from "./_decode.ts";
import { formatAmount, readTokenMetadata } from "./_erc20.ts";
import { addressField, blockField, checksummed } from "../_shared/onchain-inputs.ts";
import { getLogsPaged, logWindow, resolveBlock, scannedBlocks } from "./_logs.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";

const APPROVAL = toEventSelector("Approval(address,address,uint256)");
const APPROVAL_FOR_ALL = toEventSelector("ApprovalForAll(address,address,bool)");

export default defineEndpoint({
  name: "approvals",
  method: "GET",
  price: "$0.02",
  summary:
    "Open token approvals of a wallet: ERC-20 allowances and NFT operator approvals still in force, with revoke calldata",
  description:
    "Finds the Approval and ApprovalForAll events the wallet emitted (eth_getLogs on the chain's node), then keeps only what is still in force now (allowance(), isApprovedForAll(), getApproved()). Each entry carries the transaction that revokes it. " +
    "One call scans at most 100,000 blocks, the newest of `fromBlock`-`toBlock` (default: the last 100,000), in pages of 10,000 that public nodes accept; `fromBlock` and `toBlock` in the answer are the blocks scanned, and `olderToBlock` where to resume: an approval granted before the scanned blocks is not in this answer.",
  input: v.object({
    address: addressField("Wallet (the owner that granted approvals)"),
    chain: chainField(),
    fromBlock: v.optional(blockField("First block to search for approvals; default toBlock - 99,999")),
    toBlock: v.optional(blockField("Last block to search"), "latest"),
  }),
  output: v.object({
    chain: v.string(),
    owner: v.string(),
    ...scannedBlocks,
    count: v.number(),
    approvals: v.array(
      v.object({
        kind: v.pipe(
          v.picklist(["erc20", "erc721-all", "erc721-token"]),
          v.description("ERC-20 allowance, operator for every NFT, or one NFT"),
        ),
        token: v.string(),
        symbol: v.nullable(v.string()),
        spender: v.string(),
        allowance: v.pipe(v.nullable(v.string()), v.description("ERC-20 atomic units")),
        allowanceFormatted: v.nullable(v.string()),
        unlimited: v.pipe(
          v.boolean(),
          v.description("An ERC-20 allowance of at least 2^255, or an operator for the whole collection"),
        ),
        tokenId: v.nullable(v.string()),
        approvedBlock: v.number(),
        approvedTx: v.string(),
        revoke: v.object({ to: v.string(), data: v.string(), value: v.literal("0") }),
      }),
    ),
  }),
  example: {
    input: { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", chain: "base", fromBlock: "25000000" },
    output: {
      chain: "base",
      owner: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      fromBlock: 25005302,
      toBlock: 25105301,
      olderToBlock: 25005301,
      count: 1,
      approvals: [
        {
          kind: "erc20",
          token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
          symbol: "USDC",
          spender: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
          allowance: "115792089237316195423570985008687907853269984665640564039457584007913129639935",
          allowanceFormatted: "115792089237316195423570985008687907853269984665640564039457.584007913129639935",
          unlimited: true,
          tokenId: null,
          approvedBlock: 25012345,
          approvedTx: "0x9e1f4f7a0a3c0b5d8e2f6a7b9c1d3e5f7a9b1c3d5e7f9a1b3c5d7e9f1a3b5c7d",
          revoke: {
            to: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            data: "0x095ea7b3000000000000000000000000000000000022d473030f116ddee9f6b43ac78ba30000000000000000000000000000000000000000000000000000000000000000",
            value: "0",
          },
        },
      ],
    },
  },
  cacheTtl: 60,
  upstreams: NODES,
  async handler({ input, upstream }) {
    const owner = checksummed(input.address);
    return readNode(upstream, input.chain, async (client) => {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const toBlock = resolveBlock(input.toBlock, head, head);
      const fromBlock = resolveBlock(input.fromBlock, head, 0n);
      if (fromBlock > toBlock) throw fieldError("fromBlock", "must not be after toBlock");
      const scanned = logWindow(fromBlock, toBlock);
      const logs = await getLogsPaged(client, {
        topics: [[APPROVAL, APPROVAL_FOR_ALL], pad(owner)],
        fromBlock: scanned.fromBlock,
        toBlock,
      });
      // The latest grant per (kind, token, spender, tokenId) is the one that counts.
      const grants = new Map<string, Grant>();
      for (const log of logs) {
        const event = decodeStandardEvent(log);
        if (!event || event.name === "Transfer") continue;
        const kind =
          event.name === "ApprovalForAll" ? "erc721-all" : event.standard === "erc721" ? "erc721-token" : "erc20";
        const spender = getAddress(
          String(
            kind === "erc721-all"
              ? event.args.operator
              : kind === "erc721-token"
                ? event.args.approved
                : event.args.spender,
          ),
        );
        const tokenId = kind === "erc721-token" ? String(event.args.tokenId) : null;
        const token = getAddress(log.address);
        grants.set(`${kind} ${token} ${kind === "erc721-token" ? tokenId : spender}`, {
          kind,
          token,
          spender,
          tokenId,
          block: Number(log.blockNumber),
          tx: log.transactionHash!,
        });
      }
      const open = await currentApprovals(client, owner, [...grants.values()]);
      const erc20Tokens = [...new Set(open.filter((a) => a.kind === "erc20").map((a) => a.token))];
      const metadata = new Map(
        await Promise.all(erc20Tokens.map(async (t) => [t, await readTokenMetadata(client, t)] as const)),
      );
      const symbols = await nftSymbols(client, [
        ...new Set(open.filter((a) => a.kind !== "erc20").map((a) => a.token)),
      ]);
      const approvals = open.map((a) => {
        const meta = metadata.get(a.token);
        return {
          kind: a.kind,
          token: a.token,
          symbol: meta?.symbol ?? symbols.get(a.token) ?? null,
          spender: a.spender,
          allowance: a.allowance === null ? null : a.allowance.toString(),
          allowanceFormatted: a.allowance === null ? null : formatAmount(a.allowance, meta?.decimals ?? null),
          unlimited: a.kind === "erc721-all" || (a.allowance !== null && a.allowance >= maxUint256 / 2n),
          tokenId: a.tokenId,
          approvedBlock: a.block,
          approvedTx: a.tx,
          revoke: { to: a.token, data: revokeCall(a), value: "0" as const },
        };
      });
      return {
        chain: input.chain,
        owner,
        fromBlock: Number(scanned.fromBlock),
        toBlock: Number(toBlock),
        olderToBlock: scanned.olderToBlock === null ? null : Number(scanned.olderToBlock),
        count: approvals.length,
        approvals,
      };
    });
  },
});

async function nftSymbols(client: Parameters<typeof readTokenMetadata>[0], tokens: Address[]) {
  if (!tokens.length) return new Map<Address, string | null>();
  const results = await client.multicall({
    contracts: tokens.map((address) => ({ address, abi: erc721Abi, functionName: "symbol" as const })),
    allowFailure: true,
  });
  return new Map(tokens.map((t, i) => [t, results[i].status === "success" ? String(results[i].result) : null]));
}
