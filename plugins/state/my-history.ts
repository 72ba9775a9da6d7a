import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { paidHistoryKey, type PaidCall } from "../../core/shared.ts";
import { signInNote, signedInWallet } from "./_wallet.ts";

const maxListed = 1000;

export default defineEndpoint({
  name: "state/history",
  method: "GET",
  price: "$0",
  signIn: true,
  summary: "Your wallet's paid calls here, newest first: route, time, charge, network, transaction, receipt",
  description: `${signInNote} Every call the wallet paid (any network, vouchers and upto included) is a row, written as its paid answer left; the newest ${maxListed} are listed, \`limit\` a page from \`offset\`. A receipt is the call's signed receipt (check it with /v1/receipts/verify).`,
  input: v.object({
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
    offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(maxListed - 1)), 0),
  }),
  output: v.object({
    calls: v.array(
      v.object({
        route: v.string(),
        at: v.string(),
        charged: v.pipe(v.string(), v.description("USDC atomic units")),
        network: v.string(),
        transaction: v.optional(v.string()),
        receipt: v.optional(v.string()),
      }),
    ),
    next: v.pipe(v.nullable(v.number()), v.description("`offset` of the next page; null on the last")),
  }),
  example: {
    input: { limit: 1 },
    output: {
      calls: [
        {
          route: "GET /v1/hash",
          at: "2026-11-28T10:00:00.000Z",
          charged: "1000",
          network: "eip155:8453",
          transaction: "0x6f1c0a7d4e2b3c5a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c",
        },
      ],
      next: null,
    },
  },
  async handler({ input, wallet, store }) {
    const rows = await store.top(
      paidHistoryKey(signedInWallet(wallet)),
      Math.min(input.offset + input.limit + 1, maxListed),
    );
    const page = rows.slice(input.offset, input.offset + input.limit).map((r) => JSON.parse(r.member) as PaidCall);
    return { calls: page, next: rows.length > input.offset + input.limit ? input.offset + input.limit : null };
  },
});
