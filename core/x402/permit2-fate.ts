import { PERMIT2_ADDRESS } from "@x402/evm";
import { decodeFunctionData, parseAbi, type Abi, type Address, type Hash, type PublicClient } from "viem";
import type { Fate } from "../payment/fate.ts";
import type { LogWindow } from "./scheme.ts";
import type { PendingSettlement } from "../payment/ledger.ts";

const abi = parseAbi([
  "function nonceBitmap(address owner, uint256 word) view returns (uint256)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
]);
const [, transfer] = abi;

// Blocks mined this long before the call was recorded cannot hold its settlement (margin for the server's clock).
const clockSlackSeconds = 600n;
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** One of x402's Permit2 proxies (upto, exact): where its settlements go, and where `settle`'s args name the owner. */
export interface Permit2Proxy {
  address: Address;
  abi: Abi;
  /** The owner's place in `settle`'s arguments, after the permit (settleWithPermit carries one more argument first). */
  ownerAt: number;
}

/**
 * What became of a Permit2 payment settled through `proxy` whose settlement outcome was unknown. Permit2 marks a
 * nonce used in its bitmap and logs nothing else; the money moved only if a transaction to the proxy (anyone may send
 * one) settled this permit (its owner and nonce in the call) and moved the amount from the payer to payTo.
 */
export const permit2FateOf = (proxy: Permit2Proxy) =>
  async function fateOf(
    chain: PublicClient,
    record: PendingSettlement,
    latest: bigint,
    window: LogWindow,
  ): Promise<Fate> {
    const nonce = BigInt(record.nonce);
    const bitmap = await chain.readContract({
      address: PERMIT2_ADDRESS,
      abi,
      functionName: "nonceBitmap",
      args: [record.from as Address, nonce >> 8n],
      blockNumber: latest,
    });
    if (((bitmap >> (nonce & 0xffn)) & 1n) === 0n) return { state: "unused" };
    const since = BigInt(Math.floor(record.at / 1000)) - clockSlackSeconds;
    for (let to = latest, scanned = 0n; scanned < window.maxBlocks; ) {
      const from = to - window.chunkBlocks + 1n > 0n ? to - window.chunkBlocks + 1n : 0n;
      const [logs, first] = await Promise.all([
        chain.getLogs({
          address: record.asset as Address,
          event: transfer,
          args: { from: record.from as Address, to: record.payTo as Address },
          fromBlock: from,
          toBlock: to,
          strict: true,
        }),
        chain.getBlock({ blockNumber: from }),
      ]);
      for (const log of logs) {
        const settled = await settlesThisPermit(chain, proxy, log.transactionHash, record);
        if (settled)
          return log.args.value === BigInt(record.amount)
            ? { state: "moved", transaction: log.transactionHash }
            : { state: "not-moved", why: "spent-on-another-transfer", transaction: log.transactionHash };
      }
      // Spent, yet no settlement of this permit seen: a node behind the one that answered the bitmap, or another use.
      if (from === 0n || first.timestamp < since) return { state: "unseen", why: "no-event" };
      scanned += to - from + 1n;
      to = from - 1n;
    }
    return { state: "unseen", why: "beyond-window" };
  };

async function settlesThisPermit(chain: PublicClient, proxy: Permit2Proxy, hash: Hash, record: PendingSettlement) {
  const tx = await chain.getTransaction({ hash });
  if (!tx.to || !same(tx.to, proxy.address)) return false;
  try {
    const { functionName, args } = decodeFunctionData({ abi: proxy.abi, data: tx.input });
    if (functionName !== "settle" && functionName !== "settleWithPermit") return false;
    const settled = ((functionName === "settle" ? args : args?.slice(1)) ?? []) as readonly unknown[];
    const [permit, owner] = [settled[0] as { nonce: bigint }, settled[proxy.ownerAt] as Address];
    return permit.nonce === BigInt(record.nonce) && same(owner, record.from);
  } catch {
    return false;
  }
}
