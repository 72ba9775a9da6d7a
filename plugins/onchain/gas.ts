import * as v from "valibot";
import { formatEther, formatGwei } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainField } from "../_shared/chains.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";

const TRANSFER_GAS = 21_000n;
const Gwei = v.pipe(v.string(), v.description("Gwei, decimal string"));
const Tiers = v.object({ slow: Gwei, standard: Gwei, fast: Gwei });

export default defineEndpoint({
  name: "gas",
  method: "GET",
  price: "$0.005",
  mcp: true,
  summary:
    "Current gas prices of an EVM chain: base fee, priority fees (slow, standard, fast) and the cost of a transfer",
  description:
    "Read from the chain's node: the latest block's base fee and the 10th, 50th and 90th percentile priority fees paid over the last 20 blocks (eth_feeHistory). maxFee = 2 x baseFee + tip. On L2s the L1 data fee is not included.",
  input: v.object({ chain: chainField() }),
  output: v.object({
    chain: v.string(),
    block: v.pipe(v.number(), v.description("Latest block number")),
    baseFeeGwei: Gwei,
    priorityFeeGwei: Tiers,
    maxFeeGwei: Tiers,
    gasPriceGwei: v.pipe(v.string(), v.description("eth_gasPrice, for legacy transactions")),
    transferCost: v.object({
      gas: v.number(),
      native: Tiers,
    }),
  }),
  example: {
    input: { chain: "ethereum" },
    output: {
      chain: "ethereum",
      block: 21_640_105,
      baseFeeGwei: "4.83128392",
      priorityFeeGwei: { slow: "0.01", standard: "0.5", fast: "2" },
      maxFeeGwei: { slow: "9.67256784", standard: "10.16256784", fast: "11.66256784" },
      gasPriceGwei: "5.33128392",
      transferCost: {
        gas: 21_000,
        native: { slow: "0.00010167696464", standard: "0.00011196696464", fast: "0.00014346696464" },
      },
    },
  },
  cacheTtl: 12,
  upstreams: NODES,
  async handler({ input, upstream }) {
    return readNode(upstream, input.chain, async (client) => {
      const [history, gasPrice] = await Promise.all([
        client.getFeeHistory({ blockCount: 20, blockTag: "latest", rewardPercentiles: [10, 50, 90] }),
        client.getGasPrice(),
      ]);
      const baseFee = history.baseFeePerGas[history.baseFeePerGas.length - 1] ?? 0n;
      const rewards = history.reward ?? [];
      const tip = (i: number) => median(rewards.map((r) => r[i] ?? 0n));
      const tips = { slow: tip(0), standard: tip(1), fast: tip(2) };
      const each = <T>(f: (t: bigint) => T) => ({ slow: f(tips.slow), standard: f(tips.standard), fast: f(tips.fast) });
      return {
        chain: input.chain,
        block: Number(history.oldestBlock) + history.gasUsedRatio.length - 1,
        baseFeeGwei: formatGwei(baseFee),
        priorityFeeGwei: each((t) => formatGwei(t)),
        maxFeeGwei: each((t) => formatGwei(2n * baseFee + t)),
        gasPriceGwei: formatGwei(gasPrice),
        transferCost: { gas: Number(TRANSFER_GAS), native: each((t) => formatEther(TRANSFER_GAS * (baseFee + t))) },
      };
    });
  },
});

function median(values: bigint[]): bigint {
  if (values.length === 0) return 0n;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.floor(sorted.length / 2)];
}
