import { parseAbi, parseEventLogs, type Address, type Hash, type Hex, type Log, type PublicClient } from "viem";
import type { PendingSettlement } from "../../../payment/ledger.ts";
import type { LogWindow } from "../../scheme.ts";

const tokenAbi = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
]);
const [, used, canceled] = tokenAbi;

/** What the chain says became of a pending settlement's authorization. */
export type AuthorizationFate =
  | { state: "unused" }
  | { state: "moved"; transaction: Hash }
  | { state: "not-moved"; why: "canceled" | "spent-on-another-transfer"; transaction: Hash }
  /** Spent, but no event seen: older than the window, or a node behind the one that answered the state. */
  | { state: "unseen"; why: "beyond-window" | "no-event" };

// Blocks mined this long before the call was recorded cannot hold its use (margin for the server's clock).
const clockSlackSeconds = 600n;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * `authorizationState` is true for a used authorization and for a cancelled one alike: only the token's
 * AuthorizationUsed event, followed in the same transaction by the Transfer of the amount from the payer to
 * payTo, shows that the money moved. The events are looked for backwards from the newest block, a chunk at a
 * time, down to the block before the call (at most `maxBlocks`).
 */
export async function fateOf(
  chain: PublicClient,
  record: PendingSettlement,
  latest: bigint,
  window: LogWindow,
): Promise<AuthorizationFate> {
  const token = record.asset as Address;
  const authorizer = record.from as Address;
  const nonce = record.nonce as Hex;
  const spent = await chain.readContract({
    address: token,
    abi: tokenAbi,
    functionName: "authorizationState",
    args: [authorizer, nonce],
    blockNumber: latest,
  });
  if (!spent) return { state: "unused" };
  const since = BigInt(Math.floor(record.at / 1000)) - clockSlackSeconds;
  const found = await findUse(chain, token, authorizer, nonce, since, latest, window);
  if (found === "beyond-window") return { state: "unseen", why: "beyond-window" };
  if (!found) return { state: "unseen", why: "no-event" };
  if (found.eventName === "AuthorizationCanceled")
    return { state: "not-moved", why: "canceled", transaction: found.transactionHash };
  const receipt = await chain.getTransactionReceipt({ hash: found.transactionHash });
  // FiatToken and TestUSDC emit the Transfer as the token's next log after marking the nonce used.
  const next = receipt.logs
    .filter((l) => same(l.address, token) && l.logIndex > found.logIndex)
    .sort((a, b) => a.logIndex - b.logIndex)[0];
  const [transfer] = next ? parseEventLogs({ abi: tokenAbi, logs: [next], eventName: "Transfer" }) : [];
  const moved =
    receipt.status === "success" &&
    transfer !== undefined &&
    same(transfer.args.from, authorizer) &&
    transfer.args.value === BigInt(record.amount) &&
    // Without payTo, the recipient the payer signed, which the gate bound to payTo.
    (!record.payTo || same(transfer.args.to, record.payTo));
  return moved
    ? { state: "moved", transaction: found.transactionHash }
    : { state: "not-moved", why: "spent-on-another-transfer", transaction: found.transactionHash };
}

type UseLog = Log<bigint, number, false, typeof used | typeof canceled> & {
  eventName: "AuthorizationUsed" | "AuthorizationCanceled";
};

async function findUse(
  chain: PublicClient,
  token: Address,
  authorizer: Address,
  nonce: Hex,
  since: bigint,
  latest: bigint,
  window: LogWindow,
): Promise<UseLog | undefined | "beyond-window"> {
  for (let to = latest, scanned = 0n; scanned < window.maxBlocks; ) {
    const from = to - window.chunkBlocks + 1n > 0n ? to - window.chunkBlocks + 1n : 0n;
    const range = { address: token, args: { authorizer, nonce }, fromBlock: from, toBlock: to } as const;
    const [uses, cancels, first] = await Promise.all([
      chain.getLogs({ ...range, event: used, strict: true }),
      chain.getLogs({ ...range, event: canceled, strict: true }),
      chain.getBlock({ blockNumber: from }),
    ]);
    // A nonce is marked once, so at most one of these exists.
    const hit = [...uses, ...cancels][0] as UseLog | undefined;
    if (hit) return hit;
    if (from === 0n || first.timestamp < since) return undefined;
    scanned += to - from + 1n;
    to = from - 1n;
  }
  return "beyond-window";
}
