// test: own-process: runs the service as a process and SIGTERMs it
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { createTestClient, createPublicClient, http } from "viem";
import { freePort } from "../../../bench/lib/ports.ts";
import { localRailEnv, startDevnet, type Devnet } from "../../helpers/paid.ts";
import { accountOf, blockNow, transfersTo } from "../../helpers/rail.ts";
import { challengeOf, v2Header } from "../../helpers/sign.ts";
import { tsNodeArgs } from "../../helpers/ts-node.ts";

/**
 * SIGTERM under load, against the service as a process: 20 paid calls whose settlements the node holds unmined
 * when the signal comes. The service stops accepting, waits for them, answers each with its settlement, exits 0.
 */
let devnet: Devnet;
before(async () => {
  devnet = await startDevnet();
});
after(() => devnet?.stop());

const shutdownTimeoutMs = 30_000;

async function startChild(port: number) {
  const child = spawn(process.execPath, tsNodeArgs("core/main.ts"), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `http://127.0.0.1:${port}`,
      PLUGINS: "converters",
      JOBS: "off",
      LOG_LEVEL: "info",
      RATE_LIMIT_PER_MINUTE: "0",
      SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
      ...localRailEnv(devnet),
      STORE_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: { match: RegExp; resolve: () => void }[] = [];
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on("line", (line) => {
      lines.push(line);
      for (const w of waiters.filter((w) => w.match.test(line))) w.resolve();
    });
  const logged = (match: RegExp) =>
    lines.some((l) => match.test(l))
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ match, resolve }));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  await Promise.race([
    logged(/"msg":"listening"/),
    exited.then(() => {
      throw new Error(`the service exited before listening:\n${lines.join("\n")}`);
    }),
  ]);
  return { child, logged, exited, lines };
}

test("drain: SIGTERM with 20 paid calls settling: 20 answers of 200 with their settlement, 20 transfers, exit code 0 within SHUTDOWN_TIMEOUT_MS", async () => {
  const port = await freePort();
  const service = await startChild(port);
  const node = createTestClient({ mode: "anvil", transport: http(devnet.rpcUrl) });
  const reader = createPublicClient({ transport: http(devnet.rpcUrl) });
  const payer = accountOf(devnet, 0);
  const url = (i: number) => `http://127.0.0.1:${port}/v1/hash?text=drain${i}`;
  const signed = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => (await v2Header(payer, await challengeOf(fetch, url(i)))).header),
  );
  const from = (await blockNow(devnet)) + 1n;
  await node.setAutomine(false);
  let answers: { status: number; settlement: string | null }[] = [];
  let exit: { code: number | null; signal: string | null } | undefined;
  let tookMs = 0;
  try {
    const calls = signed.map((header, i) =>
      fetch(url(i), { headers: { "payment-signature": header } }).then(async (res) => {
        await res.arrayBuffer();
        return { status: res.status, settlement: res.headers.get("payment-response") };
      }),
    );
    // Every settlement sent and held by the node: the calls are in flight, past their handler.
    const relayer = devnet.accounts.relayer.address.toLowerCase();
    for (;;) {
      const pool = (await reader.request({ method: "txpool_content" as any })) as any;
      const held = Object.entries(pool.pending ?? {}).find(([a]) => a.toLowerCase() === relayer)?.[1] ?? {};
      if (Object.keys(held).length >= 20) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const signalled = performance.now();
    service.child.kill("SIGTERM");
    await service.logged(/shutting down/);
    assert.equal((await fetch(url(99)).catch(() => undefined))?.status ?? "refused", "refused", "no new call is taken");
    await node.setAutomine(true);
    await node.mine({ blocks: 1 });
    answers = await Promise.all(calls);
    exit = await service.exited;
    tookMs = performance.now() - signalled;
  } finally {
    await node.setAutomine(true);
    service.child.kill("SIGKILL");
  }
  assert.deepEqual(
    answers.map((a) => a.status),
    Array(20).fill(200),
  );
  assert.equal(answers.filter((a) => a.settlement).length, 20, "each answer carries its settlement");
  assert.deepEqual(await transfersTo(devnet, devnet.accounts.payTo.address, from, payer.address), {
    count: 20,
    value: 20n * BigInt(JSON.parse(Buffer.from(signed[0], "base64").toString()).accepted.amount),
  });
  assert.deepEqual(exit, { code: 0, signal: null }, service.lines.slice(-5).join("\n"));
  assert.ok(tookMs < shutdownTimeoutMs, `exited ${Math.round(tookMs)} ms after SIGTERM`);
});
