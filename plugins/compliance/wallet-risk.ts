import * as v from "valibot";
import { formatUnits } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainField, chainInfo, viemChain } from "../_shared/chains.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { NODES, readNode } from "../_shared/chain-node.ts";
import { addressReport } from "./_address-security.ts";
import { listedAddressFactor } from "./_listed-address.ts";
import { factor, scoreOf, ScoreSchema } from "./_score.ts";
import { sanctionsUpstreams } from "./_sanctions-lists.ts";

export default defineEndpoint({
  name: "wallet-risk",
  method: "GET",
  price: "$0.02",
  summary:
    "Explained risk score of a wallet: sanctions lists, GoPlus malicious-address flags, mixer use, on-chain history",
  description:
    "A 0-100 score that is the sum of the factors that fired, each listed with its weight, what was observed and where: the address among OFAC's listed digital-currency addresses (local copy of SDN.XML, 100), GoPlus's sanctioned flag (90), malicious activity flags such as phishing or theft (70), malicious contracts deployed (50), mixer use (40), GoPlus blacklist doubt (20), and a wallet with no history on the chain (10). Bands: low < 20, medium < 50, high < 80, severe. A screening aid, not a compliance determination: a low score means these sources know nothing bad, not that the wallet is safe.",
  input: v.object({ address: addressField("Wallet or contract address (EVM)"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    isContract: v.boolean(),
    txCount: v.pipe(v.number(), v.description("Transactions sent (the nonce)")),
    ...ScoreSchema,
  }),
  example: {
    input: { address: "0x098B716B8Aaf21512996dC57EB0615e2383E2f96", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x098B716B8Aaf21512996dC57EB0615e2383E2f96",
      isContract: false,
      txCount: 167,
      score: 100,
      band: "severe",
      factors: [
        {
          name: "ofac-listed-address",
          weight: 100,
          value: "listed on ofac-sdn: LAZARUS GROUP (id 23036; DPRK3)",
          triggered: true,
          points: 100,
          source:
            "US OFAC Specially Designated Nationals (SDN) list published 2026-11-20 (https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.XML)",
          explanation:
            "The address itself is on an official sanctions list: dealing with it is prohibited for persons under that jurisdiction.",
        },
        {
          name: "goplus-sanctioned",
          weight: 90,
          value: "true",
          triggered: true,
          points: 90,
          source: "GoPlus Security address_security (data from OFAC, SlowMist)",
          explanation: "GoPlus marks the address as sanctioned.",
        },
        {
          name: "goplus-malicious-activity",
          weight: 70,
          value: "theft",
          triggered: true,
          points: 70,
          source: "GoPlus Security address_security (data from OFAC, SlowMist)",
          explanation: "GoPlus links the address to malicious activity.",
        },
        {
          name: "malicious-contracts-created",
          weight: 50,
          value: "0",
          triggered: false,
          points: 0,
          source: "GoPlus Security address_security (data from OFAC, SlowMist)",
          explanation: "Contracts deployed by the address that GoPlus flags as malicious.",
        },
        {
          name: "mixer",
          weight: 40,
          value: "false",
          triggered: false,
          points: 0,
          source: "GoPlus Security address_security (data from OFAC, SlowMist)",
          explanation: "Use of a mixer (such as Tornado Cash) hides where funds came from.",
        },
        {
          name: "goplus-blacklist-doubt",
          weight: 20,
          value: "false",
          triggered: false,
          points: 0,
          source: "GoPlus Security address_security (data from OFAC, SlowMist)",
          explanation: "GoPlus suspects the address but has not confirmed it.",
        },
        {
          name: "no-history",
          weight: 10,
          value: "167 transactions sent, balance 0 ETH",
          triggered: false,
          points: 0,
          source: "ethereum node (eth_getTransactionCount, eth_getBalance)",
          explanation: "A wallet that never sent a transaction and holds nothing has no record to judge it by.",
        },
      ],
    },
  },
  cacheTtl: 3600,
  upstreams: ["goplus", ...NODES, ...sanctionsUpstreams],
  timeoutMs: 180_000,
  async handler(ctx) {
    const { input, upstream } = ctx;
    const address = checksummed(input.address);
    const info = chainInfo(input.chain);
    const [listed, report, state] = await Promise.all([
      listedAddressFactor(ctx, address),
      addressReport(upstream("goplus"), address, info.id),
      readNode(ctx.upstream, input.chain, async (client) => {
        const [nonce, balance, code] = await Promise.all([
          client.getTransactionCount({ address }),
          client.getBalance({ address }),
          client.getCode({ address }),
        ]);
        return { nonce, balance, isContract: Boolean(code && code !== "0x") };
      }),
    ]);
    const { source } = report;
    const shown = (value: boolean | null) => (value === null ? "unknown" : String(value));
    const coin = (await viemChain(input.chain)).nativeCurrency;
    const balance = `${formatUnits(state.balance, coin.decimals)} ${coin.symbol}`;
    return {
      chain: input.chain,
      address,
      isContract: state.isContract,
      txCount: state.nonce,
      ...scoreOf([
        listed,
        factor(
          "goplus-sanctioned",
          90,
          report.sanctioned === true,
          shown(report.sanctioned),
          source,
          "GoPlus marks the address as sanctioned.",
        ),
        factor(
          "goplus-malicious-activity",
          70,
          report.malicious.length > 0,
          report.malicious.join(", ") || "none",
          source,
          "GoPlus links the address to malicious activity.",
        ),
        factor(
          "malicious-contracts-created",
          50,
          (report.maliciousContractsCreated ?? 0) > 0,
          report.maliciousContractsCreated === null ? "unknown" : String(report.maliciousContractsCreated),
          source,
          "Contracts deployed by the address that GoPlus flags as malicious.",
        ),
        factor(
          "mixer",
          40,
          report.mixer === true,
          shown(report.mixer),
          source,
          "Use of a mixer (such as Tornado Cash) hides where funds came from.",
        ),
        factor(
          "goplus-blacklist-doubt",
          20,
          report.blacklistDoubt === true,
          shown(report.blacklistDoubt),
          source,
          "GoPlus suspects the address but has not confirmed it.",
        ),
        factor(
          "no-history",
          10,
          state.nonce === 0 && state.balance === 0n && !state.isContract,
          `${state.nonce} transactions sent, balance ${balance}`,
          `${input.chain} node (eth_getTransactionCount, eth_getBalance)`,
          "A wallet that never sent a transaction and holds nothing has no record to judge it by.",
        ),
      ]),
    };
  },
});
