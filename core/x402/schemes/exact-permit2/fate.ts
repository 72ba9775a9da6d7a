import { PERMIT2_ADDRESS, x402ExactPermit2ProxyABI, x402ExactPermit2ProxyAddress } from "@x402/evm";
import { decodeFunctionData, parseAbi, type Address, type Hash, type PublicClient } from "viem";
import type { Fate } from "../../../payment/fate.ts";
import type { LogWindow } from "../../scheme.ts";
import type { PendingSettlement } from "../../../payment/ledger.ts";

const abi = parseAbi([
  "function nonceBitmap(address owner, uint256 word) view returns (uint256)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
]);
const [, transfer] = abi;

// Blocks mined this long before the call was recorded cannot hold its settlement (margin for the server's clock).
const clockSlackSeconds = 600n;
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * What became of an exact Permit2 payment whose settlement outcome was unknown. Permit2 marks a nonce used in its
 * bitmap and logs nothing else; the money moved only if a transaction to x402's exact proxy (anyone may send one)
 * settled this permit (its owner and nonce in the call) and moved the amount from the payer to payTo.
 */
export async function exactPermit2FateOf(
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
      if (!(await settlesThisPermit(chain, log.transactionHash, record))) continue;
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
}

async function settlesThisPermit(chain: PublicClient, hash: Hash, record: PendingSettlement) {
  const tx = await chain.getTransaction({ hash });
  if (!tx.to || !same(tx.to, x402ExactPermit2ProxyAddress)) return false;
  try {
    const { functionName, args } = decodeFunctionData({ abi: x402ExactPermit2ProxyABI, data: tx.input });
    if (functionName !== "settle" && functionName !== "settleWithPermit") return false;
    const [permit, owner] = (functionName === "settle" ? args : args.slice(1)) as unknown as readonly [
      { nonce: bigint },
      Address,
    ];
    return permit.nonce === BigInt(record.nonce) && same(owner, record.from);
  } catch {
    return false;
  }
}
