import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { createPublicClient, http, parseAbiItem } from "viem";
import { stateKeys } from "../../plugins/state/_wallet.ts";
import { accountOf } from "../helpers/rail.ts";
import { redisMissing } from "../helpers/redis.ts";
import {
  blockNow,
  charged,
  freshPort,
  retryUntilFinished,
  send,
  signedCall,
  startInstance,
  startRig,
  type Instance,
  type Rig,
  type Signed,
} from "./_rig.ts";

/**
 * redis-server killed with SIGKILL (AOF, fsync every second, as deployed) while 50 paid /v1/store calls run on two
 * instances, and started again on its data once every call has answered. Then each payer retries what it was not
 * answered, with the same payment and identifier, until it is finished. Per payment, from outside: charged on-chain
 * (its authorization used), answered (200), credited (a funding mark for its claim, whatever funded it: the call, a
 * resolver, the journal replayed once Redis was back), written (its key in the store).
 */
const calls = 50;
const used = parseAbiItem("event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)");

let rig: Rig;
const instances: Instance[] = [];
before(async () => {
  if (redisMissing) return;
  rig = await startRig();
  instances.push(await startInstance(rig, await freshPort()), await startInstance(rig, await freshPort()));
});
after(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await rig?.stop();
});

/** Lines of the shared trace for `step` (one per call that reached it, on any instance). */
async function reached(step: string) {
  const text = await readFile(rig.trace, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line.split(" ")[1] === step).length;
}

test("redis-server SIGKILLed under 50 paid calls on two instances, restarted (AOF everysec): 0 500s, 0 double transfers, 0 writes without a transfer, every charged payment answered or credited", {
  skip: redisMissing,
}, async () => {
  const payers = Array.from({ length: 7 }, (_, i) => accountOf(rig.devnet, i));
  const from = await blockNow(rig.devnet);
  const signed: { call: Signed; payer: (typeof payers)[number]; key: string; at: Instance }[] = [];
  for (let i = 0; i < calls; i++) {
    const at = instances[i % 2];
    const payer = payers[i % payers.length];
    const key = `redis-kill-${i}`;
    signed.push({ call: await signedCall(at, payer, `/v1/store?key=${key}&value=v${i}&ttl=600`), payer, key, at });
  }
  const statuses: number[] = [];
  const firstTry = Promise.all(signed.map((s) => send(s.at, s.call)));
  // Killed once settlements are being sent: some payments move while the store is gone.
  while ((await reached("written-ahead")) < 5) await new Promise((r) => setTimeout(r, 10));
  let answered: Awaited<typeof firstTry> = [];
  await rig.redis.crash(async () => {
    answered = await firstTry;
  });
  for (const res of answered) statuses.push(res?.status ?? 0);

  // The journals replay into the store once it is back: every payment journaled is funded or recorded.
  const journaled = () => instances.flatMap((i) => i.errors).filter((line) => line.includes("journaled")).length;
  const deadline = Date.now() + 60_000;
  const fundedNow = () =>
    rig.store.keys("x402:funded:").then(
      (k) => k.length,
      () => -1,
    );
  while ((await fundedNow()) < journaled() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));

  // Each payer retries what was not answered, at the instance it paid, until finished one way or another (a 503
  // store_unavailable says to come back after Retry-After; a 503 effect_failed already names the payer's credit).
  const last = await Promise.all(
    signed.map(async (s, i) => {
      if (answered[i]?.status === 200 || answered[i]?.body?.error?.details?.creditCode) return answered[i];
      for (;;) {
        const res = await retryUntilFinished(s.at, s.call);
        if (res?.body?.error?.code !== "store_unavailable" || Date.now() > deadline) return res;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }),
  );
  for (const res of last) statuses.push(res?.status ?? 0);

  const chain = createPublicClient({ transport: http(rig.devnet.rpcUrl) });
  const logs = await chain.getLogs({ address: rig.devnet.usdc.address, event: used, fromBlock: from });
  const usedNonces = new Set(logs.map((l) => `${l.args.authorizer!.toLowerCase()}:${l.args.nonce}`));
  const funded = new Set(
    (await rig.store.keys(`x402:funded:${rig.devnet.network}:`)).map((k) => k.split(":").slice(-2).join(":")),
  );
  const per = await Promise.all(
    signed.map(async (s, i) => {
      const id = `${s.payer.address.toLowerCase()}:${s.call.nonce.toLowerCase()}`;
      const stored = await rig.store.get<{ version: number }>(stateKeys.value(s.payer.address.toLowerCase(), s.key));
      return {
        charged: usedNonces.has(id),
        answered: answered[i]?.status === 200 || last[i]?.status === 200,
        credited: funded.has(id),
        written: stored?.version ?? 0,
        // The payer holds its credit code: named by the call's answer or by its retry's.
        told: [answered[i], last[i]].some((r) => r?.body?.error?.details?.creditCode),
      };
    }),
  );
  const transfers = (await Promise.all(payers.map((p) => charged(rig, p, from)))).reduce((n, t) => n + t.count, 0);
  const count = (f: (p: (typeof per)[number]) => boolean) => per.filter(f).length;
  const figures = {
    charged: count((p) => p.charged),
    answered: count((p) => p.charged && p.answered),
    credited: count((p) => p.charged && !p.answered && p.credited),
    neither: count((p) => p.charged && !p.answered && !p.credited),
    notCharged: count((p) => !p.charged),
    firstTry: answered.filter((r) => r?.status === 200).length,
    storeUnavailable: answered.filter((r) => r?.body?.error?.code === "store_unavailable").length,
    journaled: journaled(),
  };
  console.log("figures", JSON.stringify(figures), "statuses", JSON.stringify(countsOf(statuses)));
  assert.equal(
    statuses.filter((s) => s >= 500 && s !== 503).length,
    0,
    "no 5xx other than 503 store_unavailable or effect_failed",
  );
  assert.equal(transfers, usedNonces.size, "one transfer per authorization used: no double transfer");
  assert.equal(
    count((p) => p.written > 1),
    0,
    "no write applied twice",
  );
  assert.equal(
    count((p) => p.written > 0 && !p.charged),
    0,
    "no write without a transfer",
  );
  assert.equal(
    count((p) => p.answered && !p.charged),
    0,
    "no answer without a transfer",
  );
  assert.equal(figures.neither, 0, "every charged payment was answered or credited");
  assert.equal(
    count((p) => p.charged && !p.answered && p.credited && !p.told),
    0,
    "every credited payer holds its code",
  );
  assert.ok(figures.charged > 0, "some payments moved");
});

function countsOf(values: number[]) {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
