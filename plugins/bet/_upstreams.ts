import { defineUpstreams } from "../../core/endpoint.ts";
import { chainUpstreams } from "../_shared/chains.ts";

export const betUpstreams = defineUpstreams({
  "azuro-api": {
    url: "https://api.onchainfeed.org/api/v1/public",
    commercialUse: "public protocol API for frontends and integrators",
    rateLimit: "unpublished",
    terms:
      "Azuro Protocol public REST API (market-manager games, conditions and odds; bet calculation and gas info), keyless, no published limit; odds move every few seconds",
  },
  "azuro-relayer": {
    url: "https://api.onchainfeed.org/api/v1/public",
    commercialUse: "public protocol relayer; the bettor pays its fee",
    rateLimit: "unpublished",
    terms:
      "Azuro Protocol order relayer (POST /bet/orders/ordinar), keyless; takes bettor-signed EIP-712 orders, the bettor pays the relayer fee and needs a bet-token allowance for the Relayer contract",
  },
  "polygon-rpc": chainUpstreams["polygon-rpc"],
  "gnosis-rpc": chainUpstreams["gnosis-rpc"],
});
