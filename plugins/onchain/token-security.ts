import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { chainField } from "../_shared/chains.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { checks, readTokenSecurity } from "./_token-security.ts";

const Flag = v.pipe(v.nullable(v.boolean()), v.description("null when GoPlus does not know"));
const Fraction = v.pipe(v.nullable(v.number()), v.description("0.05 = 5%; null when unknown"));

export default defineEndpoint({
  name: "token-security",
  method: "GET",
  price: "$0.02",
  summary:
    "GoPlus token risk report: honeypot, taxes, mint and owner powers, proxy, blacklists, holder and liquidity concentration",
  description:
    "GoPlus Security's token_security report, normalised: flags as booleans (null when GoPlus does not know, which is not the same as safe), taxes and shares as fractions, `risks` listing every flag that is raised. A token GoPlus has no report for is a 404.",
  input: v.object({ address: addressField("Token contract address"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    name: v.nullable(v.string()),
    symbol: v.nullable(v.string()),
    checks: v.object(
      Object.fromEntries(Object.keys(checks).map((k) => [k, Flag])) as Record<keyof typeof checks, typeof Flag>,
    ),
    risks: v.pipe(v.array(v.string()), v.description("Names of the checks that are raised")),
    buyTax: Fraction,
    sellTax: Fraction,
    transferTax: Fraction,
    holderCount: v.nullable(v.number()),
    creator: v.nullable(v.object({ address: v.string(), share: Fraction })),
    owner: v.nullable(v.object({ address: v.string(), share: Fraction })),
    topHolders: v.array(
      v.object({
        address: v.string(),
        share: v.number(),
        isContract: v.boolean(),
        isLocked: v.boolean(),
        tag: v.nullable(v.string()),
      }),
    ),
    dexes: v.array(v.object({ name: v.string(), pair: v.string(), liquidityUsd: v.nullable(v.number()) })),
    source: v.string(),
  }),
  example: {
    input: { address: "0x6982508145454Ce325dDbE47a25d4ec3d2311933", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x6982508145454Ce325dDbE47a25d4ec3d2311933",
      name: "Pepe",
      symbol: "PEPE",
      checks: {
        honeypot: false,
        cannotBuy: false,
        cannotSellAll: false,
        mintable: false,
        proxy: false,
        openSource: true,
        hiddenOwner: false,
        canTakeBackOwnership: false,
        ownerCanChangeBalance: false,
        selfDestruct: false,
        externalCall: false,
        transferPausable: false,
        tradingCooldown: false,
        blacklist: true,
        whitelist: false,
        antiWhale: false,
        taxModifiable: false,
        personalTaxModifiable: false,
        inDex: true,
      },
      risks: ["blacklist"],
      buyTax: 0,
      sellTax: 0,
      transferTax: 0,
      holderCount: 502118,
      creator: { address: "0xF4a5E8F5D4FD61d4Ffa2FBDc5b6F3AA4f98a84D8", share: 0 },
      owner: { address: "0x0000000000000000000000000000000000000000", share: 0 },
      topHolders: [
        {
          address: "0xf977814e90da44bfa03b6295a0616a897441acec",
          share: 0.0811,
          isContract: false,
          isLocked: false,
          tag: null,
        },
      ],
      dexes: [{ name: "UniswapV2", pair: "0xa43fe16908251ee70ef74718545e4fe6c5ccec9f", liquidityUsd: 28914236.5 }],
      source: "https://gopluslabs.io/token-security/1/0x6982508145454Ce325dDbE47a25d4ec3d2311933",
    },
  },
  cacheTtl: 900,
  upstreams: ["goplus"],
  async handler({ input, upstream }) {
    return readTokenSecurity(upstream("goplus"), input.chain, checksummed(input.address));
  },
});
