import type { PaymentRequired } from "@x402/core/types";
import { startServer } from "../lib/child.ts";
import { devnetEnv, payToBalance, type Devnet } from "../lib/devnet.ts";
import { measureForAmount, spareHeaders, type LoadRow } from "../lib/load.ts";
import { payerClient, paymentRequiredOf, signPayments, toPaymentHeaders, type PayerClient } from "../lib/sign.ts";
import type { BenchContext, Scenario } from "./scenario.ts";

export const PAID_REQUESTS = 1500;
export const PAID_WARMUP_REQUESTS = 50;
export const PAID_CONNECTION_LEVELS = [10, 50];
/** No paid run may take longer than this, whatever the machine's load. */
export const PAID_RUN_CAP_S = 60;

interface PaidTarget {
  label: string;
  server: string;
  env(devnet: Devnet): Record<string, string>;
}

const oursSettling: PaidTarget = {
  label: "our service (paid gate + local facilitator)",
  server: "ours-paid",
  env: () => ({}),
};
const oursVerifyOnly: PaidTarget = {
  label: "our service, verify only (settlement stubbed in the benchmark harness)",
  server: "ours-paid",
  env: () => ({ SETTLE: "stub" }),
};
const expressSettling: PaidTarget = {
  label: "@x402/express 2.27.0 (paymentMiddleware + x402ResourceServer)",
  server: "express-x402",
  // Its own relayer, so the two servers' settlement nonces never meet.
  env: (devnet) => ({ REFERENCE_RELAYER_KEY: devnet.accounts.others[0].privateKey }),
};

interface TargetResult {
  rows: LoadRow[];
  answered200: number;
  transfersLanded: number;
}

/** Warm-up then a measured run at each connection level, every request with a freshly signed payment. */
async function measureTarget(
  ctx: BenchContext,
  scenario: string,
  devnet: Devnet,
  client: PayerClient,
  target: PaidTarget,
): Promise<TargetResult> {
  const server = await startServer(
    target.server,
    { ...devnetEnv(devnet), ...target.env(devnet) },
    ctx.nodeArgs(target.server, scenario),
  );
  try {
    const url = `${server.url}/v1/hash?text=hi`;
    const required = await paymentRequiredOf(client, url);
    const price = BigInt(required.accepts[0].amount);
    const before = await payToBalance(devnet);
    const rows: LoadRow[] = [];
    let answered200 = 0;
    for (const connections of PAID_CONNECTION_LEVELS) {
      ctx.log(`  ${target.label}: ${connections} connections`);
      const warm = await paidRun(client, required, url, target.label, connections, PAID_WARMUP_REQUESTS);
      const row = await paidRun(client, required, url, target.label, connections, PAID_REQUESTS);
      answered200 += (warm.statusCodes["200"] ?? 0) + (row.statusCodes["200"] ?? 0);
      rows.push(row);
      ctx.log(
        `    ${Math.round(row.reqPerSec)} req/s, p50 ${row.p50} ms, ${row.completed} answered in ${row.elapsedS.toFixed(1)} s`,
      );
    }
    const transfersLanded = Number(((await payToBalance(devnet)) - before) / price);
    return { rows, answered200, transfersLanded };
  } finally {
    await server.stop();
  }
}

async function paidRun(
  client: PayerClient,
  required: PaymentRequired,
  url: string,
  target: string,
  connections: number,
  amount: number,
) {
  const payloads = await signPayments(client, required, amount + spareHeaders(connections));
  const headers = toPaymentHeaders(client, payloads).map((value) => ({ "payment-signature": value }));
  return measureForAmount({
    target,
    url,
    connections,
    amount,
    maxSeconds: PAID_RUN_CAP_S,
    expectedStatus: 200,
    headers,
  });
}

const howPaymentsAreMade =
  `Each request carries its own freshly signed EIP-3009 authorization (unique nonce) from the devnet's dev payer, made before the run by the real v2 client (@x402/core \`x402HTTPClient\` + @x402/evm \`ExactEvmScheme\`, spend controls off) from the route's own 402 challenge, and sent as \`PAYMENT-SIGNATURE\`. ` +
  `Per connection level: ${PAID_WARMUP_REQUESTS} warm-up requests, then ${PAID_REQUESTS} measured (each run capped at ${PAID_RUN_CAP_S} s); req/s = completed / time to the last response.`;

export const paidSettle: Scenario = {
  id: "paid",
  async run(ctx) {
    const devnet = await ctx.devnet();
    const client = payerClient(devnet.accounts.payer.privateKey);
    const ours = await measureTarget(ctx, "paid", devnet, client, oursSettling);
    const express = await measureTarget(ctx, "paid", devnet, client, expressSettling);
    return {
      id: "paid",
      title: "6. Paid calls, verify + settle on anvil",
      notes: [
        "Both servers run on the bench's one devnet (anvil, chain 84532, our TestUSDC), same payer, same payee. Ours: bench/servers/ours-paid.ts (createService + createX402Gate + createLocalFacilitator, memory store). Reference: bench/servers/express-x402.ts (express 5.3.0). " +
          "The reference uses the in-process @x402/core `x402Facilitator` with the @x402/evm exact scheme; ours (createLocalFacilitator) verifies an EOA-signed EIP-3009 payment by one `eth_call` of the token's `transferWithAuthorization` and settles by sending it, falling back to the same `x402Facilitator` for other signatures. Both use a viem nonce manager, a batched HTTP transport and 100 ms receipt polling; each server has its own relayer account.",
        howPaymentsAreMade,
        `On-chain check: ours answered ${ours.answered200} paid 200s and the payee received ${ours.transfersLanded} transfers; @x402/express answered ${express.answered200} paid 200s and the payee received ${express.transfersLanded} transfers.`,
      ],
      rows: [...ours.rows, ...express.rows],
    };
  },
};

export const paidVerifyOnly: Scenario = {
  id: "paid-verify",
  async run(ctx) {
    const devnet = await ctx.devnet();
    const client = payerClient(devnet.accounts.payer.privateKey);
    const ours = await measureTarget(ctx, "paid-verify", devnet, client, oursVerifyOnly);
    return {
      id: "paid-verify",
      title: "7. Paid calls, verify only (settlement stubbed in the benchmark harness)",
      notes: [
        "**Verify only, settlement stubbed in the benchmark harness**: bench/servers/ours-paid.ts with SETTLE=stub wraps the real local facilitator; `verify` is the real one (RPC reads and simulation on anvil), `settle` answers success at once and sends nothing. " +
          "This isolates decode + bind + local signature check + claim + facilitator verify + handler.",
        howPaymentsAreMade,
        `On-chain check: ${ours.answered200} paid 200s, ${ours.transfersLanded} transfers landed (0 expected: nothing is settled).`,
      ],
      rows: ours.rows,
    };
  },
};
