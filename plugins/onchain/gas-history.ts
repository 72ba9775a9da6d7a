import * as v from "valibot";
import { formatGwei } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainField } from "../_shared/chains.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";

const Gwei = v.pipe(v.string(), v.description("Gwei, decimal string"));

export default defineEndpoint({
  name: "gas-history",
  method: "GET",
  price: "$0.005",
  summary: "Base fee and priority fee percentiles of the last blocks of an EVM chain, with min, average and max",
  description:
    "From the chain's node (eth_feeHistory): per block the base fee, how full it was and the 10th, 50th and 90th percentile priority fees. Some public nodes cap the number of blocks; set UPSTREAM_<CHAIN>_RPC_URL for a node of your own.",
  input: v.object({
    chain: chainField(),
    blocks: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(1024),
        v.description("How many recent blocks (1-1024)"),
      ),
      100,
    ),
  }),
  output: v.object({
    chain: v.string(),
    fromBlock: v.number(),
    toBlock: v.number(),
    blocks: v.array(
      v.object({
        block: v.number(),
        baseFeeGwei: Gwei,
        gasUsedRatio: v.pipe(v.number(), v.description("Gas used / gas limit, 0-1")),
        priorityFeeGwei: v.object({ p10: Gwei, p50: Gwei, p90: Gwei }),
      }),
    ),
    baseFeeGwei: v.object({
      min: Gwei,
      avg: Gwei,
      max: Gwei,
      next: v.pipe(v.string(), v.description("Base fee of the next block")),
    }),
  }),
  example: {
    input: { chain: "base", blocks: 2 },
    output: {
      chain: "base",
      fromBlock: 25_105_300,
      toBlock: 25_105_301,
      blocks: [
        {
          block: 25_105_300,
          baseFeeGwei: "0.005206532",
          gasUsedRatio: 0.4151,
          priorityFeeGwei: { p10: "0.0001", p50: "0.001", p90: "0.01" },
        },
        {
          block: 25_105_301,
          baseFeeGwei: "0.005196081",
          gasUsedRatio: 0.4862,
          priorityFeeGwei: { p10: "0.0001", p50: "0.0012", p90: "0.015" },
        },
      ],
      baseFeeGwei: { min: "0.005196081", avg: "0.005201306", max: "0.005206532", next: "0.005194873" },
    },
  },
  cacheTtl: 15,
  upstreams: NODES,
  async handler({ input, upstream }) {
    const history = await readNode(upstream, input.chain, (client) =>
      client.getFeeHistory({ blockCount: input.blocks, blockTag: "latest", rewardPercentiles: [10, 50, 90] }),
    );
    const first = Number(history.oldestBlock);
    const count = history.gasUsedRatio.length;
    const fees = history.baseFeePerGas.slice(0, count);
    const blocks = fees.map((fee, i) => {
      const reward = history.reward?.[i] ?? [0n, 0n, 0n];
      return {
        block: first + i,
        baseFeeGwei: formatGwei(fee),
        gasUsedRatio: history.gasUsedRatio[i],
        priorityFeeGwei: {
          p10: formatGwei(reward[0] ?? 0n),
          p50: formatGwei(reward[1] ?? 0n),
          p90: formatGwei(reward[2] ?? 0n),
        },
      };
    });
    const sum = fees.reduce((a, b) => a + b, 0n);
    return {
      chain: input.chain,
      fromBlock: first,
      toBlock: first + count - 1,
      blocks,
      baseFeeGwei: {
        // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.min and Math.max refuse
        min: formatGwei(fees.reduce((a, b) => (b < a ? b : a), fees[0] ?? 0n)),
        avg: formatGwei(count ? sum / BigInt(count) : 0n),
        // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.min and Math.max refuse
        max: formatGwei(fees.reduce((a, b) => (b > a ? b : a), 0n)),
        next: formatGwei(history.baseFeePerGas[count] ?? fees[count - 1] ?? 0n),
      },
    };
  },
});
