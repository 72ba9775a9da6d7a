import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { blockscoutOf, blockscoutUpstreams } from "./_blockscout.ts";
import { chainInfo, type ChainSlug } from "../_shared/chains.ts";
import { addressField, checksummed, limitField } from "../_shared/onchain-inputs.ts";
import { D, pricedChainField, unix, usd } from "./_pnl.ts";
import { currentPrices, historicalPrices } from "./_prices.ts";
import { readSwaps, SWAP_WINDOW, type Swap, type SwapLeg } from "./_swaps.ts";

const legSchema = v.object({
  token: v.pipe(v.nullable(v.string()), v.description("Token contract; null for the native coin")),
  symbol: v.nullable(v.string()),
  amount: v.pipe(v.string(), v.description("Whole tokens")),
  priceUsd: v.pipe(v.nullable(v.number()), v.description("DefiLlama's price at the trade's time")),
  valueUsd: v.nullable(v.number()),
});

const coinOf = (chain: ChainSlug, token: string | null) =>
  token === null ? `coingecko:${chainInfo(chain).nativePriceId}` : `${chainInfo(chain).llama}:${token.toLowerCase()}`;

export default defineEndpoint({
  name: "copy-trades",
  method: "GET",
  price: "$0.02",
  summary:
    "A wallet's recent swaps as replicable trades: what it sold and bought, USD size then, price now, mirror parameters",
  description:
    "From the chain's Blockscout index: the wallet's last 100 ERC-20 transfers, 50 transactions and 50 internal transactions, grouped by transaction hash. A swap is a transaction in which the wallet both gave up something (tokens it sent, native coin sent with the transaction) and received something else (tokens, native coin paid back by a contract). Legs are valued with DefiLlama's historical price at the trade's time; the bought tokens also with today's price, so `changeSinceTrade` says whether copying now is late. `mirror` (one token in, one out) gives the pair, the amount and the execution rate to replicate through a swap endpoint. Information only; nothing is executed.",
  input: v.object({
    address: addressField("Trader wallet to follow"),
    chain: pricedChainField,
    limit: limitField(10, 25, "Most recent swaps to return"),
  }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    trades: v.array(
      v.object({
        hash: v.string(),
        time: v.pipe(v.string(), v.description("ISO 8601")),
        router: v.pipe(v.nullable(v.string()), v.description("Contract the wallet called (router or aggregator)")),
        method: v.nullable(v.string()),
        sold: v.array(legSchema),
        bought: v.array(
          v.object({
            ...legSchema.entries,
            priceNowUsd: v.nullable(v.number()),
            changeSinceTrade: v.pipe(
              v.nullable(v.number()),
              v.description("Price now over price then, minus 1 (0.25 = up 25%)"),
            ),
          }),
        ),
        valueUsd: v.pipe(v.nullable(v.number()), v.description("USD size: the sold side, else the bought side")),
        mirror: v.nullable(
          v.object({
            sellToken: v.nullable(v.string()),
            buyToken: v.nullable(v.string()),
            sellAmount: v.string(),
            rate: v.pipe(v.string(), v.description("Bought per sold at execution")),
          }),
        ),
        url: v.string(),
      }),
    ),
    window: v.pipe(
      v.object({ tokenTransfers: v.number(), transactions: v.number(), internalTransactions: v.number() }),
      v.description("Most items read from each Blockscout list"),
    ),
    source: v.string(),
  }),
  example: {
    input: { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", chain: "ethereum", limit: 1 },
    output: {
      chain: "ethereum",
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      trades: [
        {
          hash: "0x2e4d6f8a0b1c3d5e7f9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a",
          time: "2025-02-03T14:20:47.000Z",
          router: "0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD",
          method: "execute",
          sold: [{ token: null, symbol: "ETH", amount: "0.05", priceUsd: 2800, valueUsd: 140 }],
          bought: [
            {
              token: "0x6982508145454Ce325dDbE47a25d4ec3d2311933",
              symbol: "PEPE",
              amount: "10000000",
              priceUsd: 0.000014,
              valueUsd: 140,
              priceNowUsd: 0.00000977,
              changeSinceTrade: -0.302143,
            },
          ],
          valueUsd: 140,
          mirror: {
            sellToken: null,
            buyToken: "0x6982508145454Ce325dDbE47a25d4ec3d2311933",
            sellAmount: "0.05",
            rate: "200000000",
          },
          url: "https://eth.blockscout.com/tx/0x2e4d6f8a0b1c3d5e7f9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a",
        },
      ],
      window: { tokenTransfers: 100, transactions: 50, internalTransactions: 50 },
      source: "https://eth.blockscout.com/address/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045?tab=token_transfers",
    },
  },
  cacheTtl: 60,
  upstreams: [...blockscoutUpstreams, "defillama-coins"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const api = upstream(blockscoutOf(input.chain));
    const llama = upstream("defillama-coins");
    const swaps = (await readSwaps(api, input.chain, address)).slice(0, input.limit);
    const wanted = new Map<string, number[]>();
    for (const swap of swaps) {
      for (const leg of [...swap.sold, ...swap.bought])
        wanted.set(coinOf(input.chain, leg.token), [
          ...(wanted.get(coinOf(input.chain, leg.token)) ?? []),
          unix(swap.time),
        ]);
    }
    const boughtCoins = [...new Set(swaps.flatMap((s) => s.bought.map((leg) => coinOf(input.chain, leg.token))))];
    const [priceAt, now] = await Promise.all([historicalPrices(llama, wanted), currentPrices(llama, boughtCoins)]);
    const origin = new URL(api.url).origin;
    const priced = (swap: Swap, leg: SwapLeg) => {
      const price = priceAt(coinOf(input.chain, leg.token), unix(swap.time));
      return {
        token: leg.token,
        symbol: leg.symbol,
        amount: leg.amount.toFixed(),
        priceUsd: price,
        valueUsd: price === null ? null : usd(leg.amount.times(price)),
      };
    };
    const sideValue = (legs: { valueUsd: number | null }[]) =>
      legs.every((l) => l.valueUsd !== null) ? usd(legs.reduce((s, l) => s.plus(l.valueUsd!), new D(0))) : null;
    const trades = swaps.map((swap) => {
      const sold = swap.sold.map((leg) => priced(swap, leg));
      const bought = swap.bought.map((leg) => {
        const then = priced(swap, leg);
        const priceNowUsd = now.get(coinOf(input.chain, leg.token))?.price ?? null;
        const change =
          then.priceUsd && priceNowUsd !== null
            ? new D(priceNowUsd).div(then.priceUsd).minus(1).toDecimalPlaces(6).toNumber()
            : null;
        return { ...then, priceNowUsd, changeSinceTrade: change };
      });
      const single = swap.sold.length === 1 && swap.bought.length === 1;
      return {
        hash: swap.hash,
        time: swap.time.toISOString(),
        router: swap.router,
        method: swap.method,
        sold,
        bought,
        valueUsd: sideValue(sold) ?? sideValue(bought),
        mirror: single
          ? {
              sellToken: swap.sold[0].token,
              buyToken: swap.bought[0].token,
              sellAmount: swap.sold[0].amount.toFixed(),
              rate: swap.bought[0].amount.div(swap.sold[0].amount).toSignificantDigits(18).toFixed(),
            }
          : null,
        url: `${origin}/tx/${swap.hash}`,
      };
    });
    return {
      chain: input.chain,
      address,
      trades,
      window: {
        tokenTransfers: SWAP_WINDOW.tokenTransfers,
        transactions: SWAP_WINDOW.transactions,
        internalTransactions: SWAP_WINDOW.internal,
      },
      source: `${origin}/address/${address}?tab=token_transfers`,
    };
  },
});
