import { definePlugin } from "../../core/endpoint.ts";
import businessVerify from "./business-verify.ts";
import companyRisk from "./company-risk.ts";
import complianceScan from "./compliance-scan.ts";
import cryptoDd from "./crypto-dd.ts";
import defiScan from "./defi-scan.ts";
import domainIntel from "./domain-intel.ts";
import marketPulse from "./market-pulse.ts";
import monitoringSuite from "./monitoring-suite.ts";
import onchainPortfolio from "./onchain-portfolio.ts";
import siteAudit from "./site-audit.ts";
import traderDashboard from "./trader-dashboard.ts";
import traderPack from "./trader-pack.ts";

export default definePlugin({
  family: "bundles",
  endpoints: [
    businessVerify,
    companyRisk,
    complianceScan,
    cryptoDd,
    defiScan,
    domainIntel,
    marketPulse,
    monitoringSuite,
    onchainPortfolio,
    siteAudit,
    traderDashboard,
    traderPack,
  ],
});
