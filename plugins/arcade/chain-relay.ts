import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { badRequest } from "../../core/runtime/errors.ts";
import { PAYMENT_CHAIN } from "./_chain.ts";

export default defineEndpoint({
  name: "arcade/chain",
  method: "POST",
  path: "/arcade/api/chain",
  price: "$0",
  summary:
    "The /arcade page's read of the payment chain for its fairness check: eth_chainId and eth_getBlockByNumber only, passed through as JSON-RPC",
  description:
    "A check you do not want to take from us runs against a node you choose: `npm run verify-play -- --rpc <url>`.",
  raw: true,
  input: v.object({
    jsonrpc: v.literal("2.0"),
    id: v.union([v.number(), v.string()]),
    method: v.picklist(["eth_chainId", "eth_getBlockByNumber"]),
    params: v.array(v.unknown()),
  }),
  output: v.object({
    jsonrpc: v.string(),
    id: v.union([v.number(), v.string()]),
    result: v.optional(v.unknown()),
    error: v.optional(v.unknown()),
  }),
  example: {
    input: { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
    output: { jsonrpc: "2.0", id: 1, result: "0x2105" },
  },
  upstreams: [PAYMENT_CHAIN],
  async handler({ input, upstream }) {
    const params = input.method === "eth_chainId" ? [] : input.params;
    if (
      input.method === "eth_getBlockByNumber" &&
      !(typeof params[0] === "string" && /^0x[0-9a-f]{1,16}$/.test(params[0]) && params[1] === false)
    ) {
      throw badRequest("eth_getBlockByNumber takes [<hex block number>, false]");
    }
    const answer = await upstream(PAYMENT_CHAIN).json<{ result?: unknown; error?: unknown }>("", {
      method: "POST",
      body: { jsonrpc: "2.0", id: 1, method: input.method, params },
    });
    return {
      jsonrpc: "2.0",
      id: input.id,
      ...(answer?.error ? { error: answer.error } : { result: answer?.result ?? null }),
    };
  },
});
