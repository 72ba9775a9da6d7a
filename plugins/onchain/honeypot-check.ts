import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { HoneypotOutput, honeypotChainField, honeypotReport } from "./_honeypot.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";

export default defineEndpoint({
  name: "honeypot-check",
  method: "GET",
  price: "$0.01",
  summary:
    "Can you sell this token? honeypot.is simulates a buy and a sell: honeypot verdict, taxes, limits, holder sell tests",
  description:
    "honeypot.is simulates a buy, a sell and a transfer against the token's main pair, and replays sells for real holders. `isHoneypot` is null when the simulation could not run (no liquidity): unknown, not safe. Taxes are percents. A token honeypot.is cannot find is a 404. Ethereum, BSC and Base only.",
  input: v.object({ address: addressField("Token (or pair) address"), chain: honeypotChainField }),
  output: v.object({ chain: v.string(), address: v.string(), ...HoneypotOutput.entries }),
  example: {
    input: { address: "0x6982508145454Ce325dDbE47a25d4ec3d2311933", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x6982508145454Ce325dDbE47a25d4ec3d2311933",
      simulated: true,
      simulationError: null,
      isHoneypot: false,
      honeypotReason: null,
      risk: "low",
      riskLevel: 1,
      flags: [],
      buyTaxPercent: 0,
      sellTaxPercent: 0,
      transferTaxPercent: 0,
      buyGas: 128953,
      sellGas: 106290,
      maxBuyTokens: null,
      maxSellTokens: null,
      holders: { tested: 1250, canSell: 1248, cannotSell: 2, siphoned: 0, averageTaxPercent: 0, highestTaxPercent: 0 },
      openSource: true,
      isProxy: false,
      pair: {
        address: "0xA43fe16908251ee70EF74718545e4FE6C5cCEc9f",
        name: "Uniswap V2: PEPE-WETH",
        type: "UniswapV2",
        liquidityUsd: 28914236.5,
        createdAt: "2023-04-14T18:37:11.000Z",
      },
      token: { name: "Pepe", symbol: "PEPE", totalHolders: 502118 },
      source: "https://honeypot.is/ethereum?address=0x6982508145454Ce325dDbE47a25d4ec3d2311933",
    },
  },
  cacheTtl: 600,
  upstreams: ["honeypot-is"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    return { chain: input.chain, address, ...(await honeypotReport(upstream("honeypot-is"), input.chain, address)) };
  },
});
