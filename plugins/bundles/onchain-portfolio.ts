import * as v from "valibot";
import { addressField } from "../_shared/onchain-inputs.ts";
import { chainSlugs } from "../_shared/chains.ts";
import { defineBundle } from "./_compose.ts";
import { round2 } from "./_digest.ts";
import { examples } from "./_examples.ts";

interface Holding {
  symbol: string | null;
  valueUsd: number | null;
}
interface WalletData {
  native?: Holding;
  tokens?: Holding[];
  totalUsd?: number;
}
interface ApprovalsData {
  approvals?: { unlimited: boolean }[];
}

const DEFAULT_CHAINS = "ethereum,base,arbitrum,optimism,polygon,bsc";
const slugs = chainSlugs.join("|");
const walletParts = Object.fromEntries(chainSlugs.map((c) => [`wallet-${c}`, "wallet"])) as Record<
  `wallet-${string}`,
  "wallet"
>;
const approvalParts = Object.fromEntries(chainSlugs.map((c) => [`approvals-${c}`, "approvals"])) as Record<
  `approvals-${string}`,
  "approvals"
>;

export default defineBundle({
  name: "onchain-portfolio",
  price: "$0.05",
  summary:
    "Cross-chain portfolio of a wallet: balances and USD value per chain, allocation, largest holdings, unlimited approvals",
  description:
    `Composes wallet and approvals on each chain asked for (default ${DEFAULT_CHAINS}); lp-positions and wallet-pnl are not composed (per-chain PnL would double the calls). ` +
    "The summary totals the USD value of the chains that answered, each chain's share, the five largest priced holdings and the count of unlimited token approvals (each one a standing risk). Unpriced tokens (spam included) count for nothing.",
  input: v.object({
    address: addressField("The wallet"),
    chains: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(200),
        v.regex(new RegExp(`^(${slugs})(,(${slugs}))*$`), `comma-separated: ${chainSlugs.join(", ")}`),
        v.description(`Comma-separated network slugs: ${chainSlugs.join(", ")}`),
      ),
      DEFAULT_CHAINS,
    ),
    approvals: v.optional(
      v.pipe(v.boolean(), v.description("Also list token approvals on each chain (slower: it scans the chain's logs)")),
      true,
    ),
  }),
  parts: { ...walletParts, ...approvalParts },
  plan({ address, chains, approvals }) {
    const asked = [...new Set(chains.split(","))];
    return Object.fromEntries(
      asked.flatMap((chain) => [
        [`wallet-${chain}`, { address, chain }],
        ...(approvals ? [[`approvals-${chain}`, { address, chain }]] : []),
      ]),
    );
  },
  digest: v.object({
    totalUsd: v.pipe(v.number(), v.description("USD value across the chains that answered")),
    chains: v.pipe(
      v.array(v.object({ chain: v.string(), totalUsd: v.number(), sharePercent: v.nullable(v.number()) })),
      v.description("Per chain that answered, largest first"),
    ),
    topHoldings: v.pipe(
      v.array(v.object({ chain: v.string(), symbol: v.nullable(v.string()), valueUsd: v.number() })),
      v.description("The five largest priced holdings"),
    ),
    unlimitedApprovals: v.pipe(
      v.nullable(v.number()),
      v.description("Unlimited approvals across the chains whose approvals answered; null when none did"),
    ),
  }),
  summarize(parts) {
    const data = parts as Record<string, unknown>;
    const wallets = chainSlugs.flatMap((chain) => {
      const wallet = data[`wallet-${chain}`] as WalletData | undefined;
      return wallet ? [{ chain, wallet }] : [];
    });
    const totalUsd = round2(wallets.reduce((sum, w) => sum + (w.wallet.totalUsd ?? 0), 0));
    const holdings = wallets.flatMap(({ chain, wallet }) =>
      [wallet.native, ...(wallet.tokens ?? [])].flatMap((h) =>
        h?.valueUsd ? [{ chain, symbol: h.symbol, valueUsd: h.valueUsd }] : [],
      ),
    );
    const approvals = chainSlugs
      .map((chain) => data[`approvals-${chain}`] as ApprovalsData | undefined)
      .filter((a) => a !== undefined);
    return {
      totalUsd,
      chains: wallets
        .map(({ chain, wallet }) => ({
          chain,
          totalUsd: wallet.totalUsd ?? 0,
          sharePercent: totalUsd ? round2(((wallet.totalUsd ?? 0) / totalUsd) * 100) : null,
        }))
        .sort((a, b) => b.totalUsd - a.totalUsd),
      topHoldings: holdings.sort((a, b) => b.valueUsd - a.valueUsd).slice(0, 5),
      unlimitedApprovals: approvals.length
        ? approvals.reduce((n, a) => n + (a.approvals ?? []).filter((x) => x.unlimited).length, 0)
        : null,
    };
  },
  example: examples["onchain-portfolio"],
});
