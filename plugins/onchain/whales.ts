import * as v from "valibot";
import { formatEther, formatUnits, getAddress, hexToBigInt, toEventSelector, type Block, type Hex } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainInfo, chains, viemChain, type ChainSlug } from "../_shared/chains.ts";
import { getLogsSplitting } from "./_logs.ts";
import { majorTokens } from "./_majors.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";
import { cents, chainPrices } from "./_prices.ts";

const TRANSFER = toEventSelector("Transfer(address,address,uint256)");
const MAX_RESULTS = 100;

/** Chains with a price source and a list of major tokens: a whale is measured in dollars. */
const whaleSlugs = chains.filter((c) => "llama" in c && majorTokens[c.slug]).map((c) => c.slug) as ChainSlug[];

const topicAddress = (topic: Hex | undefined) => getAddress(`0x${(topic ?? "0x").slice(-40)}`);

export default defineEndpoint({
  name: "whales",
  method: "GET",
  price: "$0.01",
  summary:
    "Large recent transfers of a chain's native coin and major tokens (stablecoins, wrapped ETH and BTC), valued in USD",
  description:
    "Reads the last `blocks` blocks from the chain's node: every native-coin transaction (eth_getBlockByNumber) and every Transfer event of the chain's major tokens (USDC, USDT, DAI, wrapped native coin, wrapped BTC at their canonical addresses; eth_getLogs). Values use DefiLlama's current prices; transfers under `minUsd` are dropped, the largest first, at most 100. Mints and burns count (from or to the zero address).",
  input: v.object({
    chain: v.optional(
      v.pipe(
        v.picklist(whaleSlugs, `must be one of: ${whaleSlugs.join(", ")}`),
        v.description(`Network: ${whaleSlugs.join(", ")}`),
      ),
      "ethereum",
    ),
    minUsd: v.optional(
      v.pipe(
        v.number(),
        v.minValue(1_000),
        v.maxValue(1_000_000_000),
        v.description("Smallest transfer to report, in USD (1,000-1,000,000,000)"),
      ),
      100_000,
    ),
    blocks: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(100),
        v.description("How many recent blocks to read (1-100)"),
      ),
      20,
    ),
  }),
  output: v.object({
    chain: v.string(),
    fromBlock: v.number(),
    toBlock: v.number(),
    minUsd: v.number(),
    transfers: v.array(
      v.object({
        hash: v.string(),
        blockNumber: v.number(),
        time: v.pipe(v.nullable(v.string()), v.description("Block time, ISO 8601")),
        from: v.string(),
        to: v.nullable(v.string()),
        asset: v.string(),
        token: v.pipe(v.nullable(v.string()), v.description("Token contract; null for the native coin")),
        amount: v.pipe(v.string(), v.description("Decimal amount of the asset")),
        priceUsd: v.number(),
        valueUsd: v.number(),
      }),
    ),
    totalUsd: v.number(),
    tracked: v.pipe(v.array(v.string()), v.description("Assets watched on this chain")),
    unpriced: v.pipe(v.array(v.string()), v.description("Tracked assets DefiLlama had no price for (left out)")),
  }),
  example: {
    input: { chain: "ethereum", minUsd: 1_000_000, blocks: 1 },
    output: {
      chain: "ethereum",
      fromBlock: 21630000,
      toBlock: 21630000,
      minUsd: 1_000_000,
      transfers: [
        {
          hash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
          blockNumber: 21630000,
          time: "2025-01-15T10:12:35.000Z",
          from: "0x28C6c06298d514Db089934071355E5743bf21d60",
          to: "0xF977814e90dA44bFA03b6295A0616a897441aceC",
          asset: "USDT",
          token: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
          amount: "2500000",
          priceUsd: 0.9998,
          valueUsd: 2_499_500,
        },
      ],
      totalUsd: 2_499_500,
      tracked: ["ETH", "USDC", "USDT", "DAI", "WETH", "WBTC"],
      unpriced: [],
    },
  },
  cacheTtl: 30,
  upstreams: [...NODES, "defillama-coins"],
  async handler({ input, upstream }) {
    const chain = chainInfo(input.chain);
    const tokens = majorTokens[input.chain] ?? [];
    const { fromBlock, toBlock, blocks, logs } = await readNode(upstream, input.chain, async (client) => {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const from = head - BigInt(input.blocks) + 1n > 0n ? head - BigInt(input.blocks) + 1n : 0n;
      const numbers = Array.from({ length: Number(head - from + 1n) }, (_, i) => from + BigInt(i));
      const [blocks, logs] = await Promise.all([
        Promise.all(numbers.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true }))),
        getLogsSplitting(client, {
          address: tokens.map((t) => t.address),
          topics: [TRANSFER],
          fromBlock: from,
          toBlock: head,
        }),
      ]);
      return { fromBlock: from, toBlock: head, blocks, logs };
    });

    const prices = await chainPrices(
      upstream("defillama-coins"),
      chain,
      tokens.map((t) => t.address.toLowerCase()),
      { native: true },
    );
    const nativePrice = prices.native?.price;
    const timeOf = new Map(blocks.map((b: Block) => [b.number, new Date(Number(b.timestamp) * 1000).toISOString()]));
    const symbol = (await viemChain(input.chain)).nativeCurrency.symbol;

    const native =
      nativePrice === undefined
        ? []
        : blocks.flatMap((block) =>
            block.transactions.flatMap((tx) => {
              if (typeof tx === "string" || tx.value === 0n) return [];
              const amount = formatEther(tx.value);
              return [
                {
                  hash: tx.hash,
                  blockNumber: Number(block.number),
                  time: timeOf.get(block.number) ?? null,
                  from: getAddress(tx.from),
                  to: tx.to ? getAddress(tx.to) : null,
                  asset: symbol,
                  token: null,
                  amount,
                  priceUsd: nativePrice,
                  valueUsd: cents(Number(amount) * nativePrice),
                },
              ];
            }),
          );
    const byAddress = new Map(tokens.map((t) => [t.address.toLowerCase(), t]));
    const moved = logs.flatMap((log) => {
      const token = byAddress.get(log.address.toLowerCase());
      const price = prices.token(log.address)?.price;
      // ERC-721 Transfer events have the id as a third topic and no data: not a fungible amount.
      if (!token || price === undefined || log.topics.length !== 3 || log.data === "0x") return [];
      const amount = formatUnits(hexToBigInt(log.data), token.decimals);
      return [
        {
          hash: log.transactionHash!,
          blockNumber: Number(log.blockNumber),
          time: timeOf.get(log.blockNumber!) ?? null,
          from: topicAddress(log.topics[1]),
          to: topicAddress(log.topics[2]),
          asset: token.symbol,
          token: getAddress(log.address),
          amount,
          priceUsd: price,
          valueUsd: cents(Number(amount) * price),
        },
      ];
    });

    const transfers = [...native, ...moved]
      .filter((t) => t.valueUsd >= input.minUsd)
      .sort((a, b) => b.valueUsd - a.valueUsd)
      .slice(0, MAX_RESULTS);
    return {
      chain: input.chain,
      fromBlock: Number(fromBlock),
      toBlock: Number(toBlock),
      minUsd: input.minUsd,
      transfers,
      totalUsd: cents(transfers.reduce((sum, t) => sum + t.valueUsd, 0)),
      tracked: [symbol, ...tokens.map((t) => t.symbol)],
      unpriced: [
        ...(nativePrice === undefined ? [symbol] : []),
        ...tokens.filter((t) => !prices.token(t.address)).map((t) => t.symbol),
      ],
    };
  },
});
