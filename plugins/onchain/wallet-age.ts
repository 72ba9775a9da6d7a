import * as v from "valibot";
import { formatEther } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainField } from "../_shared/chains.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";
import { isRpcAnswer } from "./_logs.ts";

export default defineEndpoint({
  name: "wallet-age",
  method: "GET",
  price: "$0.01",
  summary: "When a wallet first became active on a chain: first block and time, age in days, transactions sent",
  description:
    "From the chain's node alone, by binary search over historical state: the first block in which the wallet's nonce was non-zero (its first sent transaction, exact). A wallet that never sent anything is dated by the first block in which it held a balance (basis first-balance). On a node that keeps only recent state the search stops at the oldest block it answers for and `exact` is false; point UPSTREAM_<CHAIN>_RPC_URL at an archive node for exact dates.",
  input: v.object({ address: addressField("Wallet address"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    isContract: v.boolean(),
    txCount: v.pipe(v.number(), v.description("Transactions sent (the nonce)")),
    balance: v.pipe(v.string(), v.description("Native coin balance now")),
    active: v.pipe(v.boolean(), v.description("false for a wallet that never sent or held anything")),
    basis: v.pipe(
      v.nullable(v.picklist(["first-sent-tx", "first-balance"])),
      v.description("What the first block is the first of"),
    ),
    exact: v.pipe(
      v.boolean(),
      v.description(
        "false when the node keeps no state that old (not an archive node): firstBlock is then the oldest block it could read, and the wallet may be older",
      ),
    ),
    firstBlock: v.nullable(v.number()),
    firstSeenAt: v.pipe(v.nullable(v.string()), v.description("ISO 8601 UTC")),
    ageDays: v.nullable(v.number()),
  }),
  example: {
    input: { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      isContract: false,
      txCount: 1534,
      balance: "4.201337",
      active: true,
      basis: "first-sent-tx",
      exact: true,
      firstBlock: 1_146_306,
      firstSeenAt: "2016-03-10T16:02:57.000Z",
      ageDays: 3232.4,
    },
  },
  cacheTtl: 3600,
  upstreams: NODES,
  async handler({ input, upstream, now }) {
    const address = checksummed(input.address);
    return readNode(upstream, input.chain, async (client) => {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const [nonce, balance, code] = await Promise.all([
        client.getTransactionCount({ address, blockNumber: head }),
        client.getBalance({ address, blockNumber: head }),
        client.getCode({ address, blockNumber: head }),
      ]);
      const base = {
        chain: input.chain,
        address,
        isContract: Boolean(code && code !== "0x"),
        txCount: nonce,
        balance: formatEther(balance),
      };
      const basis = nonce > 0 ? ("first-sent-tx" as const) : balance > 0n ? ("first-balance" as const) : null;
      if (!basis)
        return { ...base, active: false, basis, exact: true, firstBlock: null, firstSeenAt: null, ageDays: null };
      const active =
        basis === "first-sent-tx"
          ? (b: bigint) => client.getTransactionCount({ address, blockNumber: b }).then((n) => n > 0)
          : (b: bigint) => client.getBalance({ address, blockNumber: b }).then((x) => x > 0n);
      const { block: firstBlock, exact } = await firstBlockWhere(active, head);
      const { timestamp } = await client.getBlock({ blockNumber: firstBlock });
      const seen = new Date(Number(timestamp) * 1000);
      return {
        ...base,
        active: true,
        basis,
        exact,
        firstBlock: Number(firstBlock),
        firstSeenAt: seen.toISOString(),
        ageDays: Math.round(((now().getTime() - seen.getTime()) / 86_400_000) * 10) / 10,
      };
    });
  },
});

/**
 * The first block at which `holds` is true, given that it holds at `head` and, once true, stays true. A block whose
 * state the node refuses (a pruned, non-archive node) is searched past: the answer is then the first block of the
 * state the node keeps, and `exact` is false.
 */
async function firstBlockWhere(
  holds: (block: bigint) => Promise<boolean>,
  head: bigint,
): Promise<{ block: bigint; exact: boolean }> {
  let low = 0n;
  let high = head;
  let exact = true;
  while (low < high) {
    const middle = (low + high) / 2n;
    const answer = await holds(middle).catch((error: unknown) => {
      if (!isRpcAnswer(error)) throw error;
      return undefined;
    });
    if (answer === undefined) exact = false;
    if (answer) high = middle;
    else low = middle + 1n;
  }
  return { block: low, exact };
}
