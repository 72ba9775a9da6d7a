import * as v from "valibot";
import { erc20Abi, formatEther, getAddress, pad, toEventSelector, type Address } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { chainField, chainInfo, viemChain } from "../_shared/chains.ts";
import { formatAmount, readTokenMetadata } from "./_erc20.ts";
import { addressField, blockField, checksummed } from "../_shared/onchain-inputs.ts";
import { getLogsPaged, logWindow, resolveBlock, scannedBlocks } from "./_logs.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";
import { cents, chainPrices } from "./_prices.ts";

const TRANSFER = toEventSelector("Transfer(address,address,uint256)");
const usd = (what: string) => v.pipe(v.nullable(v.number()), v.description(what));

export default defineEndpoint({
  name: "wallet",
  method: "GET",
  price: "$0.02",
  mcp: true,
  summary: "A wallet's holdings on a chain: native coin, ERC-20 balances and NFT counts, valued in USD",
  description:
    "Tokens are found from the Transfer events into and out of the wallet (eth_getLogs on the chain's node); balances are read now with balanceOf(). USD values use DefiLlama's current prices; tokens DefiLlama does not price have null values and are left out of the total (most spam tokens). " +
    "One call scans at most 100,000 blocks, the newest of `fromBlock`-`toBlock` (default: the last 100,000), in pages of 10,000 that public nodes accept; `fromBlock` and `toBlock` in the answer are the blocks scanned, and `olderToBlock` where to resume: a token the wallet has not moved since before the scanned blocks is not in this answer.",
  input: v.object({
    address: addressField("Wallet address"),
    chain: chainField(),
    fromBlock: v.optional(blockField("First block to search for token transfers; default toBlock - 99,999")),
    toBlock: v.optional(blockField("Last block to search"), "latest"),
  }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    isContract: v.boolean(),
    txCount: v.pipe(v.number(), v.description("Transactions sent (the nonce)")),
    ...scannedBlocks,
    native: v.object({
      symbol: v.string(),
      balance: v.string(),
      priceUsd: usd("DefiLlama price"),
      valueUsd: usd("balance x price"),
    }),
    tokens: v.array(
      v.object({
        token: v.string(),
        name: v.nullable(v.string()),
        symbol: v.nullable(v.string()),
        decimals: v.nullable(v.number()),
        balance: v.pipe(v.string(), v.description("Atomic units")),
        balanceFormatted: v.nullable(v.string()),
        priceUsd: usd("DefiLlama price; null when unpriced"),
        valueUsd: usd("balance x price"),
      }),
    ),
    nfts: v.array(v.object({ token: v.string(), symbol: v.nullable(v.string()), count: v.number() })),
    totalUsd: v.pipe(v.number(), v.description("Native coin and priced tokens")),
  }),
  example: {
    input: { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", chain: "base", fromBlock: "20000000" },
    output: {
      chain: "base",
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      isContract: false,
      txCount: 12,
      fromBlock: 38_900_001,
      toBlock: 39_000_000,
      olderToBlock: 38_900_000,
      native: { symbol: "ETH", balance: "0.052", priceUsd: 3300.5, valueUsd: 171.63 },
      tokens: [
        {
          token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
          name: "USD Coin",
          symbol: "USDC",
          decimals: 6,
          balance: "125000000",
          balanceFormatted: "125",
          priceUsd: 0.9998,
          valueUsd: 124.98,
        },
      ],
      nfts: [],
      totalUsd: 296.61,
    },
  },
  cacheTtl: 60,
  upstreams: [...NODES, "defillama-coins"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const chain = chainInfo(input.chain);
    const held = await readNode(upstream, input.chain, async (client) => {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const toBlock = resolveBlock(input.toBlock, head, head);
      const fromBlock = resolveBlock(input.fromBlock, head, 0n);
      if (fromBlock > toBlock) throw fieldError("fromBlock", "must not be after toBlock");
      const scanned = logWindow(fromBlock, toBlock);
      const range = { fromBlock: scanned.fromBlock, toBlock };
      const [incoming, outgoing, balance, nonce, code] = await Promise.all([
        getLogsPaged(client, { topics: [TRANSFER, null, pad(address)], ...range }),
        getLogsPaged(client, { topics: [TRANSFER, pad(address)], ...range }),
        client.getBalance({ address }),
        client.getTransactionCount({ address }),
        client.getCode({ address }),
      ]);
      const touched = [...incoming, ...outgoing];
      const fungible = unique(touched.filter((l) => l.topics.length === 3).map((l) => getAddress(l.address)));
      const collections = unique(touched.filter((l) => l.topics.length === 4).map((l) => getAddress(l.address)));
      const balances = await client.multicall({
        contracts: [...fungible, ...collections].map((token) => ({
          address: token,
          abi: erc20Abi,
          functionName: "balanceOf" as const,
          args: [address] as const,
        })),
        allowFailure: true,
      });
      const amount = (i: number) => (balances[i].status === "success" ? (balances[i].result as bigint) : 0n);
      const tokens = await Promise.all(
        fungible.flatMap((token, i) =>
          amount(i) > 0n
            ? [readTokenMetadata(client, token).then((meta) => ({ token, meta, balance: amount(i) }))]
            : [],
        ),
      );
      const nfts = await Promise.all(
        collections.flatMap((token, j) => {
          const count = amount(fungible.length + j);
          return count > 0n
            ? [readTokenMetadata(client, token).then((meta) => ({ token, symbol: meta.symbol, count: Number(count) }))]
            : [];
        }),
      );
      return { balance, nonce, isContract: Boolean(code && code !== "0x"), tokens, nfts, scanned };
    });

    const prices = await chainPrices(
      upstream("defillama-coins"),
      chain,
      held.tokens.map((t) => t.token),
      { native: true },
    );
    const value = (formatted: string | null, price: number | null) =>
      formatted === null || price === null ? null : cents(Number(formatted) * price);

    const nativeBalance = formatEther(held.balance);
    const nativePrice = prices.native?.price ?? null;
    const tokens = held.tokens.map(({ token, meta, balance }) => {
      const formatted = formatAmount(balance, meta.decimals);
      const price = prices.token(token)?.price ?? null;
      return {
        token,
        name: meta.name,
        symbol: meta.symbol,
        decimals: meta.decimals,
        balance: balance.toString(),
        balanceFormatted: formatted,
        priceUsd: price,
        valueUsd: value(formatted, price),
      };
    });
    const native = {
      symbol: (await viemChain(input.chain)).nativeCurrency.symbol,
      balance: nativeBalance,
      priceUsd: nativePrice,
      valueUsd: value(nativeBalance, nativePrice),
    };
    const totalUsd = [native.valueUsd, ...tokens.map((t) => t.valueUsd)].reduce<number>((sum, x) => sum + (x ?? 0), 0);
    return {
      chain: input.chain,
      address,
      isContract: held.isContract,
      txCount: held.nonce,
      fromBlock: Number(held.scanned.fromBlock),
      toBlock: Number(held.scanned.toBlock),
      olderToBlock: held.scanned.olderToBlock === null ? null : Number(held.scanned.olderToBlock),
      native,
      tokens,
      nfts: held.nfts,
      totalUsd: cents(totalUsd),
    };
  },
});

const unique = (addresses: Address[]) => [...new Set(addresses)];
