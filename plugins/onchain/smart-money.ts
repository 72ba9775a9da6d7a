import * as v from "valibot";
import { getAddress } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { DEX_CHAINS, GECKOTERMINAL, geckoPools } from "../_shared/dex.ts";
import { blockscoutOf, blockscoutUpstreams } from "./_blockscout.ts";
import type { ChainSlug } from "../_shared/chains.ts";
import { poolTrades, type PoolTrade } from "./_gecko-trades.ts";
import { limitField } from "../_shared/onchain-inputs.ts";
import { D, llamaPrefixOf, pricedSlugs, readWalletPnl, usd } from "./_pnl.ts";

const POOLS = 3;
const TRANSFERS = 50;
const smartSlugs = pricedSlugs.filter((slug) => slug in DEX_CHAINS) as ChainSlug[];

export default defineEndpoint({
  name: "smart-money",
  method: "GET",
  price: "$0.01",
  summary:
    "Wallets making large trades in a chain's trending pools, scored by their realized and unrealized PnL, explained",
  description:
    "Takes the chain's 3 trending pools on GeckoTerminal and their trades of at least `minUsd` in the last 24 hours; the wallets that sent them, by traded volume, are scored with wallet-pnl's FIFO logic over their last 50 ERC-20 transfers (Blockscout, DefiLlama prices). A wallet is `smart` when its PnL in that window is positive and at least half of its tokens with a PnL made money; `why` says so in words. A heuristic on public data (Nansen and Arkham labels are paid), not advice. Wallets best PnL first.",
  input: v.object({
    chain: v.optional(
      v.pipe(
        v.picklist(smartSlugs, `must be one of: ${smartSlugs.join(", ")}`),
        v.description(`Network: ${smartSlugs.join(", ")}`),
      ),
      "ethereum",
    ),
    limit: limitField(5, 10, "Most wallets to score"),
    minUsd: v.optional(
      v.pipe(
        v.number(),
        v.minValue(100),
        v.maxValue(10_000_000),
        v.description("Smallest trade that makes a wallet a candidate, USD (100-10,000,000)"),
      ),
      10_000,
    ),
  }),
  output: v.object({
    chain: v.string(),
    minUsd: v.number(),
    pools: v.array(v.object({ pool: v.string(), name: v.string(), url: v.string() })),
    wallets: v.array(
      v.object({
        address: v.string(),
        smart: v.boolean(),
        why: v.string(),
        volumeUsd: v.pipe(v.number(), v.description("Large trades in the trending pools, 24 hours")),
        trades: v.array(
          v.object({
            pool: v.string(),
            poolName: v.string(),
            kind: v.picklist(["buy", "sell"]),
            volumeUsd: v.string(),
            time: v.string(),
            hash: v.string(),
          }),
        ),
        pnl: v.object({
          realizedUsd: v.number(),
          unrealizedUsd: v.number(),
          totalUsd: v.number(),
          winRate: v.nullable(v.number()),
          tokens: v.number(),
          incompleteTokens: v.pipe(v.number(), v.description("Tokens whose PnL has gaps (see wallet-pnl)")),
          transfersRead: v.number(),
          from: v.nullable(v.string()),
        }),
      }),
    ),
    sources: v.array(v.string()),
  }),
  example: {
    input: { chain: "ethereum", limit: 1, minUsd: 10_000 },
    output: {
      chain: "ethereum",
      minUsd: 10_000,
      pools: [
        {
          pool: "0xa43fe16908251ee70ef74718545e4fe6c5ccec9f",
          name: "PEPE / WETH",
          url: "https://www.geckoterminal.com/eth/pools/0xa43fe16908251ee70ef74718545e4fe6c5ccec9f",
        },
      ],
      wallets: [
        {
          address: "0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE",
          smart: true,
          why: "PnL +$4,210.55 over its last 50 token transfers; 3 of 4 tokens in profit",
          volumeUsd: 48_250.1,
          trades: [
            {
              pool: "0xa43fe16908251ee70ef74718545e4fe6c5ccec9f",
              poolName: "PEPE / WETH",
              kind: "buy",
              volumeUsd: "48250.1",
              time: "2025-02-03T14:20:47.000Z",
              hash: "0x2e4d6f8a0b1c3d5e7f9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a",
            },
          ],
          pnl: {
            realizedUsd: 3_900.2,
            unrealizedUsd: 310.35,
            totalUsd: 4_210.55,
            winRate: 0.75,
            tokens: 5,
            incompleteTokens: 1,
            transfersRead: 50,
            from: "2025-01-02T10:11:12.000Z",
          },
        },
      ],
      sources: ["https://www.geckoterminal.com/eth/pools", "https://eth.blockscout.com", "https://defillama.com"],
    },
  },
  cacheTtl: 300,
  upstreams: [GECKOTERMINAL, ...blockscoutUpstreams, "defillama-coins"],
  async handler({ input, upstream }) {
    const network = DEX_CHAINS[input.chain].gecko;
    const gecko = upstream(GECKOTERMINAL);
    const pools = (await geckoPools(gecko, `/networks/${network}/trending_pools`)).slice(0, POOLS);
    const trades = (await Promise.all(pools.map((p) => poolTrades(gecko, network, p, input.minUsd)))).flat();
    const byTrader = new Map<string, PoolTrade[]>();
    for (const trade of trades) {
      const trader = getAddress(trade.trader.toLowerCase());
      byTrader.set(trader, [...(byTrader.get(trader) ?? []), trade]);
    }
    const volume = (list: PoolTrade[]) => list.reduce((sum, t) => sum.plus(t.volumeUsd), new D(0));
    const candidates = [...byTrader].sort(([, a], [, b]) => volume(b).cmp(volume(a))).slice(0, input.limit);
    const blockscout = upstream(blockscoutOf(input.chain));
    const llama = upstream("defillama-coins");
    const wallets = await Promise.all(
      candidates.map(async ([address, own]) => {
        const pnl = await readWalletPnl(blockscout, llama, llamaPrefixOf(input.chain), address, TRANSFERS);
        const scored = pnl.tokens.filter((t) => t.totalUsd !== 0);
        const winners = scored.filter((t) => t.totalUsd > 0).length;
        const smart = pnl.totalUsd > 0 && pnl.winRate !== null && pnl.winRate >= 0.5;
        const money = `${pnl.totalUsd < 0 ? "-" : "+"}$${Math.abs(pnl.totalUsd).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
        return {
          address,
          smart,
          why: scored.length
            ? `PnL ${money} over its last ${pnl.transfersRead} token transfers; ${winners} of ${scored.length} tokens in profit`
            : `no priced PnL in its last ${pnl.transfersRead} token transfers`,
          volumeUsd: usd(volume(own)),
          trades: own.map(({ pool, poolName, kind, volumeUsd, time, hash }) => ({
            pool,
            poolName,
            kind,
            volumeUsd,
            time,
            hash,
          })),
          pnl: {
            realizedUsd: pnl.realizedUsd,
            unrealizedUsd: pnl.unrealizedUsd,
            totalUsd: pnl.totalUsd,
            winRate: pnl.winRate,
            tokens: pnl.tokens.length,
            incompleteTokens: pnl.tokens.filter((t) => !t.complete).length,
            transfersRead: pnl.transfersRead,
            from: pnl.from,
          },
        };
      }),
    );
    return {
      chain: input.chain,
      minUsd: input.minUsd,
      pools: pools.map((p) => ({ pool: p.pool, name: p.name, url: p.url })),
      wallets: wallets.sort((a, b) => b.pnl.totalUsd - a.pnl.totalUsd),
      sources: [
        `https://www.geckoterminal.com/${network}/pools`,
        new URL(blockscout.url).origin,
        "https://defillama.com",
      ],
    };
  },
});
