import { attention, disclaimer } from "./_environments.ts";
import { betTypedData } from "./_typed-data.ts";

/** A quote served from the recorded Azuro answers in test/plugins/bet/fixtures, issued at 2026-05-11T11:46:40Z (bet/submit's example signs it). */
export const quoteRaw = {
  conditionId: "300610060000000000847930280000000000002435620690",
  outcomeId: "29",
  amountRaw: "10500000",
  minOdds: "1760000000000",
  nonce: "1778500000000123",
  expiresAt: 1778500300,
  relayerFeeAmount: "23841",
};
const core = "0xF9548Be470A4e130c90ceA8b179FCD66D2972AC7";
const affiliate = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";

export const quoteExample = {
  input: { conditionId: quoteRaw.conditionId, outcomeId: quoteRaw.outcomeId, amount: 10.5 },
  output: {
    environment: "PolygonUSDT",
    chain: 137,
    betToken: { symbol: "USDT", address: "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", decimals: 6 },
    market: { conditionId: quoteRaw.conditionId, title: `Market ${quoteRaw.conditionId}` },
    outcome: { outcomeId: "29", title: "Outcome 29", odds: 1.81 },
    amount: 10.5,
    potentialPayout: 19.005,
    minOdds: 1.76,
    minBet: 1,
    maxBet: 250.5,
    maxPayout: 5000,
    isFeeSponsored: false as const,
    relayerFeePaidBy: "bettor" as const,
    relayerFee: 0.023841,
    affiliate,
    approval: {
      token: "0xc2132D05D31c914a87C6611C10748AEb04B58e8F",
      spender: "0x8dA05c0021e6b35865FDC959c54dCeF3A4AbBa9d",
      amountRaw: "10523841",
    },
    typedData: betTypedData({ chainId: 137, core, affiliate, attention }, quoteRaw),
    raw: quoteRaw,
    disclaimer,
  },
};
