import type { Fixture } from "../../helpers/fixtures.ts";
import { startTestService } from "../../helpers/service.ts";

export const dir = new URL("./fixtures/", import.meta.url);
export const base = "/api/v1/public";
export const conditionId = "300610060000000000847930280000000000002435620690";
export const affiliate = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
/** anvil's dev accounts 1 and 2: public test keys, no value anywhere. */
export const bettorKey = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
export const strangerKey = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";

export const betService = (url: string) =>
  startTestService({
    plugins: ["bet"],
    env: {
      UPSTREAM_AZURO_API_URL: `${url}${base}`,
      UPSTREAM_AZURO_RELAYER_URL: `${url}${base}`,
      UPSTREAM_POLYGON_RPC_URL: `${url}/polygon-rpc`,
      UPSTREAM_GNOSIS_RPC_URL: `${url}/gnosis-rpc`,
      BET_AFFILIATE: affiliate,
    },
  });

/** `/bet/calculation` for the stake check at submit time, asked with the bettor's wallet. */
export function calculation(wallet: string, maxBet: number, maxPayout = "5000"): Fixture {
  return {
    source:
      "https://github.com/Azuro-protocol/toolkit/blob/main/src/utils/bet/getBetCalculation.ts (wallet gives the bettor's own maxBet; human token units)",
    request: {
      method: "POST",
      path: `${base}/bet/calculation`,
      body: { environment: "PolygonUSDT", bets: [{ conditionId, outcomeId: 29 }], wallet },
    },
    response: { status: 200, body: { response: { minBet: 1, maxBet, maxPayout } } },
  };
}

/** The relayer's answer to `POST /bet/orders/ordinar`, any body; the test checks the body it received. */
export function relayer(status: number, body: unknown): Fixture {
  return {
    source:
      "https://github.com/Azuro-protocol/toolkit/blob/main/src/utils/bet/createBet.ts (CreateBetResponse {id, state, errorMessage?, error?}; errors are JSON with errorMessage and error) and gem-docs live/errors (OrderError values)",
    request: { method: "POST", path: `${base}/bet/orders/ordinar` },
    response: { status, body },
  };
}

/** A Polygon node's answer to one JSON-RPC read, as the fixture server matches it (body keys in any order). */
export function polygonRead(method: string, params: unknown[], result: unknown, note: string): Fixture {
  return {
    source: `https://ethereum.org/en/developers/docs/apis/json-rpc/ (${method}); ${note}`,
    request: { method: "POST", path: "/polygon-rpc", body: { jsonrpc: "2.0", id: 1, method, params } },
    response: { status: 200, body: { jsonrpc: "2.0", id: 1, result } },
  };
}
