import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestClient, http } from "viem";
import { accountOf } from "../helpers/rail.ts";
import { redisMissing } from "../helpers/redis.ts";
import {
  blockNow,
  charged,
  freshPort,
  send,
  signedCall,
  startInstance,
  startRig,
  type Instance,
  type Rig,
} from "./_rig.ts";

/**
 * /ready's `relayer` check, on the real service: a settlement the node holds unmined (automine off) fails it once
 * the oldest has waited twice RELAYER_REPLACE_AFTER_SECONDS (1 s here), and it passes again once the settlement is
 * mined; the call it held is answered, one transfer.
 */
let rig: Rig;
let instance: Instance;
before(async () => {
  if (redisMissing) return;
  rig = await startRig();
  instance = await startInstance(rig, await freshPort(), undefined, { RELAYER_REPLACE_AFTER_SECONDS: "1" });
});
after(async () => {
  await instance?.stop();
  await rig?.stop();
});

async function readiness() {
  const res = await fetch(`${instance.url}/ready`);
  return { status: res.status, text: await res.text() };
}

async function until(what: string, holds: () => Promise<boolean>) {
  const deadline = Date.now() + 60_000;
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test("/ready fails its relayer check while a settlement waits unmined past twice the replace delay, and passes once it is mined; the call answers, one transfer", {
  skip: redisMissing,
}, async () => {
  const node = createTestClient({ mode: "anvil", transport: http(rig.devnet.rpcUrl) });
  const payer = accountOf(rig.devnet, 0);
  assert.equal((await readiness()).status, 200);
  const from = await blockNow(rig.devnet);
  const call = await signedCall(instance, payer, "/v1/store?key=ready&value=v&ttl=600");
  await node.setAutomine(false);
  let answer: ReturnType<typeof send> | undefined;
  try {
    answer = send(instance, call);
    let last = { status: 0, text: "" };
    await until("the relayer check to fail", async () => (last = await readiness()).status === 503);
    assert.match(last.text, /relayer/);
    assert.match(last.text, /stalled: 1 settlements pending/);
  } finally {
    await node.setAutomine(true);
    await node.mine({ blocks: 1 });
  }
  await until("the relayer check to pass", async () => (await readiness()).status === 200);
  const res = await answer;
  assert.equal(res?.status, 200, JSON.stringify(res?.body));
  assert.equal((await charged(rig, payer, from)).count, 1, "one transfer");
});
