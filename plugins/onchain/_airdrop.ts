import { Decimal } from "decimal.js";
import type { BlockscoutTokenTransfer, BlockscoutTransaction } from "./_blockscout.ts";
import { bridgeAt, canonicalBridges } from "./_bridges.ts";
import type { ChainSlug } from "../_shared/chains.ts";

/** How far back the activity is read: Blockscout pages of 50. */
export const AIRDROP_WINDOW = { sentTransactions: 250, tokenTransfers: 150 };

export const criterionIds = [
  "walletAge",
  "transactions",
  "activeMonths",
  "activeDays",
  "distinctContracts",
  "bridges",
  "tokenVolume",
] as const;

export interface Criterion {
  id: (typeof criterionIds)[number];
  label: string;
  value: number | null;
  unit: string;
  threshold: number;
  points: number;
  maxPoints: number;
  met: boolean;
  source: string;
  explanation: string;
}

export interface Activity {
  chain: ChainSlug;
  /** Blockscout's lifetime counter, sent and received. */
  transactionsCount: number;
  /** Successful transactions the wallet sent, newest first, within the window. */
  sent: BlockscoutTransaction[];
  /** true when `sent` holds every transaction the wallet ever sent. */
  complete: boolean;
  firstSent: BlockscoutTransaction | null;
  transfers: BlockscoutTokenTransfer[];
  now: Date;
  links: { address: string; transactions: string; tokenTransfers: string };
}

const DAY = 86_400_000;
const day = (t: BlockscoutTransaction) => new Date(t.timestamp).toISOString().slice(0, 10);
const round = (n: number, places = 2) => Math.round(n * 10 ** places) / 10 ** places;

/** Full points at the threshold, a proportional share below it. */
function criterion(spec: Omit<Criterion, "points" | "met">): Criterion {
  const share = spec.value === null ? 0 : Math.min(1, spec.value / spec.threshold);
  return { ...spec, points: Math.round(spec.maxPoints * share), met: share === 1 };
}

export function bridgesUsed(activity: Activity) {
  const used = new Map<
    string,
    { name: string; contract: string; transactions: number; lastUsedAt: string; reference: string }
  >();
  for (const t of activity.sent) {
    const bridge = t.to ? bridgeAt(activity.chain, t.to.hash) : undefined;
    if (!bridge) continue;
    const seen = used.get(bridge.contract);
    if (seen) seen.transactions += 1;
    else
      used.set(bridge.contract, {
        name: bridge.name,
        contract: bridge.contract,
        transactions: 1,
        lastUsedAt: new Date(t.timestamp).toISOString(),
        reference: bridge.reference,
      });
  }
  return [...used.values()];
}

/** Sum of |amount| × Blockscout's current price over the transfers read; unpriced tokens are counted apart. */
export function tokenVolume(transfers: BlockscoutTokenTransfer[]) {
  let usd = new Decimal(0);
  let unpriced = 0;
  for (const t of transfers) {
    if (!t.total || t.token.exchange_rate === null || t.token.decimals === null) unpriced += 1;
    else
      usd = usd.plus(
        new Decimal(t.total.value)
          .div(new Decimal(10).pow(t.total.decimals ?? t.token.decimals))
          .times(t.token.exchange_rate),
      );
  }
  return { usd: usd.toDecimalPlaces(2).toNumber(), unpriced };
}

export function criteria(activity: Activity): Criterion[] {
  const { sent, links } = activity;
  const within = activity.complete
    ? "every transaction it sent"
    : `its latest ${sent.length} transactions sent (older ones not read, so this is a lower bound)`;
  const days = new Set(sent.map(day));
  const months = new Set([...days].map((d) => d.slice(0, 7)));
  const contracts = new Set(sent.filter((t) => t.to?.is_contract).map((t) => t.to!.hash.toLowerCase()));
  const bridges = bridgesUsed(activity);
  const tracked = canonicalBridges[activity.chain]?.length ?? 0;
  const volume = tokenVolume(activity.transfers);
  const first = activity.firstSent ? new Date(activity.firstSent.timestamp) : null;
  const ageDays = first ? round((activity.now.getTime() - first.getTime()) / DAY, 1) : null;
  return [
    criterion({
      id: "walletAge",
      label: "Wallet age",
      value: ageDays,
      unit: "days",
      threshold: 365,
      maxPoints: 15,
      source: links.transactions,
      explanation: first
        ? `First transaction sent on ${first.toISOString().slice(0, 10)}, ${Math.floor(ageDays!)} days ago. Airdrops favour wallets active long before their snapshot; full points from one year.`
        : "The wallet has never sent a transaction on this chain, so it has no age here.",
    }),
    criterion({
      id: "transactions",
      label: "Transactions",
      value: activity.transactionsCount,
      unit: "transactions",
      threshold: 100,
      maxPoints: 15,
      source: links.address,
      explanation: `${activity.transactionsCount} transactions sent or received (Blockscout's lifetime count). Past airdrops tiered rewards by transaction count; full points from 100.`,
    }),
    criterion({
      id: "activeMonths",
      label: "Active months",
      value: months.size,
      unit: "months",
      threshold: 6,
      maxPoints: 15,
      source: links.transactions,
      explanation: `Sent transactions in ${months.size} distinct calendar months (UTC), counted over ${within}. Activity spread over months weighs more than a burst; full points from 6.`,
    }),
    criterion({
      id: "activeDays",
      label: "Active days",
      value: days.size,
      unit: "days",
      threshold: 30,
      maxPoints: 10,
      source: links.transactions,
      explanation: `Sent transactions on ${days.size} distinct days (UTC), counted over ${within}. Full points from 30.`,
    }),
    criterion({
      id: "distinctContracts",
      label: "Distinct contracts",
      value: contracts.size,
      unit: "contracts",
      threshold: 25,
      maxPoints: 15,
      source: links.transactions,
      explanation: `Called ${contracts.size} different contracts, counted over ${within}. Using many protocols is a common criterion; full points from 25.`,
    }),
    criterion({
      id: "bridges",
      label: "Canonical bridges used",
      value: tracked ? bridges.length : null,
      unit: "bridges",
      threshold: 1,
      maxPoints: 15,
      source: links.transactions,
      explanation: tracked
        ? bridges.length
          ? `Sent transactions to ${bridges.map((b) => b.name).join(", ")}. Bridging to or from a network was the entry ticket of most L2 airdrops.`
          : `No transaction sent to the ${tracked} canonical bridge contracts tracked on ${activity.chain}, counted over ${within}. Third-party bridges are not recognised.`
        : `No canonical bridge contract is tracked on ${activity.chain} (withdrawals there go through each token's own contract), so this criterion scores nothing.`,
    }),
    criterion({
      id: "tokenVolume",
      label: "Token volume",
      value: volume.usd,
      unit: "USD",
      threshold: 10_000,
      maxPoints: 15,
      source: links.tokenTransfers,
      explanation: `$${volume.usd.toLocaleString("en-US")} moved in its latest ${activity.transfers.length} ERC-20 transfers (in and out), valued at Blockscout's current token prices${volume.unpriced ? `; ${volume.unpriced} transfers of unpriced tokens left out` : ""}. Full points from $10,000.`,
    }),
  ];
}

export type Band = "low" | "moderate" | "strong" | "very strong";
export const bandOf = (score: number): Band =>
  score >= 75 ? "very strong" : score >= 50 ? "strong" : score >= 25 ? "moderate" : "low";
