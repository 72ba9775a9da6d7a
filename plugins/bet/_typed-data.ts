import type { Address } from "viem";

/** The raw values a bettor signs and sends back to `/v1/bet/submit`, exactly as the quote gave them. */
export interface RawBet {
  conditionId: string;
  outcomeId: string;
  /** Stake in raw bet-token units. */
  amountRaw: string;
  /** Minimum accepted odds, 12-decimal fixed point. */
  minOdds: string;
  nonce: string;
  /** Unix seconds. */
  expiresAt: number;
  /** Raw bet-token units, paid by the bettor. */
  relayerFeeAmount: string;
}

/** Where the order is valid: the environment's chain and ClientCore, and the affiliate credited. */
export interface BetDomain {
  chainId: number;
  core: Address;
  affiliate: Address;
  attention: string;
}

/** Azuro v3 EIP-712 types (toolkit `config.ts`); their type hashes are the Relayer's `_CLIENTBETDATA_TYPEHASH` and kin. */
export const betTypes = {
  ClientBetData: [
    { name: "clientData", type: "ClientData" },
    { name: "bets", type: "SubBet[]" },
  ],
  ClientData: [
    { name: "attention", type: "string" },
    { name: "affiliate", type: "address" },
    { name: "core", type: "address" },
    { name: "expiresAt", type: "uint256" },
    { name: "chainId", type: "uint256" },
    { name: "relayerFeeAmount", type: "uint256" },
    { name: "isFeeSponsored", type: "bool" },
    { name: "isBetSponsored", type: "bool" },
    { name: "isSponsoredBetReturnable", type: "bool" },
  ],
  SubBet: [
    { name: "conditionId", type: "uint256" },
    { name: "outcomeId", type: "uint128" },
    { name: "minOdds", type: "uint64" },
    { name: "amount", type: "uint128" },
    { name: "nonce", type: "uint256" },
  ],
} as const;

export const typedDataDomainName = "Live Betting";
export const typedDataDomainVersion = "1.0.0";

/**
 * The typed data of a single bet, ready for `eth_signTypedData_v4` (big integers as decimal strings).
 * The quote serves it and the submission rebuilds it from the raw values: one function, so the two cannot drift.
 */
export function betTypedData(domain: BetDomain, bet: RawBet) {
  const clientData = {
    attention: domain.attention,
    affiliate: domain.affiliate,
    core: domain.core,
    expiresAt: bet.expiresAt,
    chainId: domain.chainId,
    relayerFeeAmount: bet.relayerFeeAmount,
    isFeeSponsored: false,
    isBetSponsored: false,
    isSponsoredBetReturnable: false,
  };
  const subBet = {
    conditionId: bet.conditionId,
    outcomeId: bet.outcomeId,
    minOdds: bet.minOdds,
    amount: bet.amountRaw,
    nonce: bet.nonce,
  };
  return {
    types: {
      ClientBetData: [...betTypes.ClientBetData],
      ClientData: [...betTypes.ClientData],
      SubBet: [...betTypes.SubBet],
    },
    primaryType: "ClientBetData" as const,
    domain: {
      name: typedDataDomainName,
      version: typedDataDomainVersion,
      chainId: domain.chainId,
      verifyingContract: domain.core,
    },
    message: { clientData, bets: [subBet] },
  };
}

export type BetTypedData = ReturnType<typeof betTypedData>;

/** The relayer's order body (toolkit `createBet`): one `bet` object, not `bets`; outcomeId a number. */
export function relayerOrder(environment: string, bettor: Address, typed: BetTypedData, signature: string) {
  const [bet] = typed.message.bets;
  const owner = bettor.toLowerCase();
  return {
    environment,
    bettor: owner,
    betOwner: owner,
    clientBetData: {
      clientData: typed.message.clientData,
      bet: {
        conditionId: bet.conditionId,
        outcomeId: Number(bet.outcomeId),
        minOdds: bet.minOdds,
        amount: bet.amount,
        nonce: bet.nonce,
      },
    },
    bettorSignature: signature,
  };
}
