import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { AIRDROP_WINDOW, bandOf, bridgesUsed, criteria, criterionIds } from "./_airdrop.ts";
import {
  blockscoutChainField,
  blockscoutOf,
  blockscoutUpstreams,
  readCounters,
  readTokenTransfers,
  readTransactions,
} from "./_blockscout.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";

const NOTICE =
  "An estimate of how closely this wallet's activity on this chain matches the patterns past airdrops have rewarded. It is not a claim checker: it reads no airdrop's eligibility list and cannot say whether any airdrop will include this wallet.";

const criterionSchema = v.object({
  id: v.picklist(criterionIds),
  label: v.string(),
  value: v.pipe(
    v.nullable(v.number()),
    v.description("What the wallet shows; null when it cannot be measured on this chain"),
  ),
  unit: v.string(),
  threshold: v.pipe(v.number(), v.description("Value that earns full points")),
  points: v.pipe(v.number(), v.description("maxPoints × min(1, value / threshold), rounded")),
  maxPoints: v.number(),
  met: v.pipe(v.boolean(), v.description("true when the value reaches the threshold")),
  source: v.pipe(v.string(), v.description("Explorer page the value comes from")),
  explanation: v.string(),
});

export default defineEndpoint({
  name: "airdrop-check",
  method: "GET",
  price: "$0.05",
  summary:
    "Airdrop-readiness estimate of a wallet on one chain: age, transactions, active months and days, contracts, canonical bridges, token volume, each explained",
  description:
    "Scores a wallet's on-chain activity against the patterns past airdrops rewarded (e.g. the tiers of the 2023 Arbitrum airdrop), from the chain's Blockscout index: wallet age from its first sent transaction (15 points at 365 days), lifetime transactions (15 at 100), distinct active months (15 at 6) and days (10 at 30), distinct contracts called (15 at 25), canonical bridge contracts used (15 at 1; only operator-published addresses, none on polygon) and ERC-20 volume at Blockscout's current prices (15 at $10,000). Each criterion earns its points in proportion to value / threshold, capped; score 0-100, band low under 25, moderate under 50, strong under 75, very strong from 75. Months, days, contracts and bridges count the latest 250 successful transactions sent; volume the latest 150 ERC-20 transfers. Not a claim checker: it reads no airdrop's eligibility list.",
  input: v.object({ address: addressField("Wallet address"), chain: blockscoutChainField }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    score: v.pipe(v.number(), v.description("0-100, the sum of the criteria's points")),
    band: v.picklist(["low", "moderate", "strong", "very strong"]),
    criteria: v.array(criterionSchema),
    bridgesUsed: v.array(
      v.object({
        name: v.string(),
        contract: v.string(),
        transactions: v.number(),
        lastUsedAt: v.pipe(v.string(), v.description("ISO 8601")),
        reference: v.pipe(v.string(), v.description("Where the bridge's operator publishes the address")),
      }),
    ),
    activity: v.object({
      firstSentAt: v.pipe(v.nullable(v.string()), v.description("First transaction the wallet sent, ISO 8601")),
      lastSentAt: v.pipe(v.nullable(v.string()), v.description("Latest transaction the wallet sent, ISO 8601")),
      sentTransactionsRead: v.number(),
      tokenTransfersRead: v.number(),
      complete: v.pipe(v.boolean(), v.description("true when every transaction the wallet sent was read")),
    }),
    notice: v.string(),
    sources: v.array(v.string()),
  }),
  example: {
    input: { address: "0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE",
      score: 51,
      band: "strong",
      criteria: [
        {
          id: "walletAge",
          label: "Wallet age",
          value: 401.6,
          unit: "days",
          threshold: 365,
          points: 15,
          maxPoints: 15,
          met: true,
          source: "https://eth.blockscout.com/address/0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE?tab=txs",
          explanation:
            "First transaction sent on 2024-01-09, 401 days ago. Airdrops favour wallets active long before their snapshot; full points from one year.",
        },
        {
          id: "transactions",
          label: "Transactions",
          value: 9,
          unit: "transactions",
          threshold: 100,
          points: 1,
          maxPoints: 15,
          met: false,
          source: "https://eth.blockscout.com/address/0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE",
          explanation:
            "9 transactions sent or received (Blockscout's lifetime count). Past airdrops tiered rewards by transaction count; full points from 100.",
        },
        {
          id: "activeMonths",
          label: "Active months",
          value: 6,
          unit: "months",
          threshold: 6,
          points: 15,
          maxPoints: 15,
          met: true,
          source: "https://eth.blockscout.com/address/0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE?tab=txs",
          explanation:
            "Sent transactions in 6 distinct calendar months (UTC), counted over every transaction it sent. Activity spread over months weighs more than a burst; full points from 6.",
        },
        {
          id: "activeDays",
          label: "Active days",
          value: 6,
          unit: "days",
          threshold: 30,
          points: 2,
          maxPoints: 10,
          met: false,
          source: "https://eth.blockscout.com/address/0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE?tab=txs",
          explanation:
            "Sent transactions on 6 distinct days (UTC), counted over every transaction it sent. Full points from 30.",
        },
        {
          id: "distinctContracts",
          label: "Distinct contracts",
          value: 3,
          unit: "contracts",
          threshold: 25,
          points: 2,
          maxPoints: 15,
          met: false,
          source: "https://eth.blockscout.com/address/0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE?tab=txs",
          explanation:
            "Called 3 different contracts, counted over every transaction it sent. Using many protocols is a common criterion; full points from 25.",
        },
        {
          id: "bridges",
          label: "Canonical bridges used",
          value: 1,
          unit: "bridges",
          threshold: 1,
          points: 15,
          maxPoints: 15,
          met: true,
          source: "https://eth.blockscout.com/address/0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE?tab=txs",
          explanation:
            "Sent transactions to Base L1StandardBridge. Bridging to or from a network was the entry ticket of most L2 airdrops.",
        },
        {
          id: "tokenVolume",
          label: "Token volume",
          value: 364.91,
          unit: "USD",
          threshold: 10000,
          points: 1,
          maxPoints: 15,
          met: false,
          source: "https://eth.blockscout.com/address/0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE?tab=token_transfers",
          explanation:
            "$364.91 moved in its latest 5 ERC-20 transfers (in and out), valued at Blockscout's current token prices. Full points from $10,000.",
        },
      ],
      bridgesUsed: [
        {
          name: "Base L1StandardBridge",
          contract: "0x3154Cf16ccdb4C6d922629664174b904d80F2C35",
          transactions: 1,
          lastUsedAt: "2024-01-09T10:15:23.000Z",
          reference: "https://docs.base.org/base-chain/network-information/base-contracts",
        },
      ],
      activity: {
        firstSentAt: "2024-01-09T10:15:23.000Z",
        lastSentAt: "2025-02-03T14:20:47.000Z",
        sentTransactionsRead: 7,
        tokenTransfersRead: 5,
        complete: true,
      },
      notice: NOTICE,
      sources: ["https://eth.blockscout.com/address/0x4a7C6899cdcB379e284fBFD045462e751DA4C7cE"],
    },
  },
  cacheTtl: 3600,
  upstreams: blockscoutUpstreams,
  async handler({ input, upstream, now }) {
    const address = checksummed(input.address);
    const api = upstream(blockscoutOf(input.chain));
    const page = `${new URL(api.url).origin}/address/${address}`;
    const [counters, sentRead, transfers] = await Promise.all([
      readCounters(api, address),
      readTransactions(api, address, AIRDROP_WINDOW.sentTransactions, { filter: "from" }),
      readTokenTransfers(api, address, AIRDROP_WINDOW.tokenTransfers),
    ]);
    const complete = sentRead.length < AIRDROP_WINDOW.sentTransactions;
    // Only a wallet with more sent transactions than the window needs the oldest-first page to date its first one.
    const oldest = complete
      ? sentRead.at(-1)
      : (await readTransactions(api, address, 1, { filter: "from", sort: "block_number", order: "asc" }))[0];
    const sent = sentRead.filter((t) => t.status === "ok");
    const links = { address: page, transactions: `${page}?tab=txs`, tokenTransfers: `${page}?tab=token_transfers` };
    const activity = {
      chain: input.chain,
      transactionsCount: Number(counters.transactions_count),
      sent,
      complete,
      firstSent: oldest ?? null,
      transfers,
      now: now(),
      links,
    };
    const list = criteria(activity);
    const score = Math.min(
      100,
      list.reduce((sum, c) => sum + c.points, 0),
    );
    return {
      chain: input.chain,
      address,
      score,
      band: bandOf(score),
      criteria: list,
      bridgesUsed: bridgesUsed(activity),
      activity: {
        firstSentAt: oldest ? new Date(oldest.timestamp).toISOString() : null,
        lastSentAt: sentRead[0] ? new Date(sentRead[0].timestamp).toISOString() : null,
        sentTransactionsRead: sentRead.length,
        tokenTransfersRead: transfers.length,
        complete,
      },
      notice: NOTICE,
      sources: [page],
    };
  },
});
