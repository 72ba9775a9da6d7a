import { definePlugin } from "../../core/endpoint.ts";
import abi from "./abi.ts";
import addressSecurity from "./address-security.ts";
import airdropCheck from "./airdrop-check.ts";
import approvals from "./approvals.ts";
import contract from "./contract.ts";
import contractAudit from "./contract-audit.ts";
import contractSource from "./contract-source.ts";
import copyTrades from "./copy-trades.ts";
import dappSecurity from "./dapp-security.ts";
import decodeCalldata from "./decode-calldata.ts";
import ens from "./ens.ts";
import eventLogs from "./event-logs.ts";
import gas from "./gas.ts";
import gasHistory from "./gas-history.ts";
import honeypotCheck from "./honeypot-check.ts";
import lpPositions from "./lp-positions.ts";
import nftSecurity from "./nft-security.ts";
import phishingCheck from "./phishing-check.ts";
import proxyDetect from "./proxy-detect.ts";
import rugCheck from "./rug-check.ts";
import simulateTx from "./simulate-tx.ts";
import smartMoney from "./smart-money.ts";
import snapshotProposals from "./snapshot-proposals.ts";
import tokenHolders from "./token-holders.ts";
import tokenInfo from "./token-info.ts";
import tokenSecurity from "./token-security.ts";
import tx from "./tx.ts";
import wallet from "./wallet.ts";
import walletAge from "./wallet-age.ts";
import walletPnl from "./wallet-pnl.ts";
import whales from "./whales.ts";

import { onchainUpstreams } from "./_upstreams.ts";
export default definePlugin({
  family: "onchain",
  endpoints: [
    abi,
    addressSecurity,
    airdropCheck,
    approvals,
    contract,
    contractAudit,
    contractSource,
    copyTrades,
    dappSecurity,
    decodeCalldata,
    ens,
    eventLogs,
    gas,
    gasHistory,
    honeypotCheck,
    lpPositions,
    nftSecurity,
    phishingCheck,
    proxyDetect,
    rugCheck,
    simulateTx,
    smartMoney,
    snapshotProposals,
    tokenHolders,
    tokenInfo,
    tokenSecurity,
    tx,
    wallet,
    walletAge,
    walletPnl,
    whales,
  ],
  upstreams: onchainUpstreams,
});
