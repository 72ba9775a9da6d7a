import { after, test } from "node:test";
import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { signInHeaders, signInTo } from "../../helpers/sign-in.ts";
import { startTarget } from "../../helpers/target-server.ts";
import { dataOf } from "../web/_web-expect.ts";
import { instance, page, receiver, world } from "./_watch-harness.ts";
import watchEndpoint from "../../../plugins/state/watch.ts";

const target = await startTarget({});
after(() => target.close());

type Instance = Awaited<ReturnType<typeof instance>>;

/** GET `path` signed in as `signer`, with the extension's own client helper over the route's challenge. */
async function signedIn(service: Instance, path: string, signer: PrivateKeyAccount) {
  const { header } = await signInTo((p) => service.request(p), path, signer);
  return service.request(path, { headers: signInHeaders(header) });
}

test("state/watches: a wallet signed in lists its own live watches with their checks, on another instance, free; another wallet sees none of them", async () => {
  const w = world();
  const [a, b] = await Promise.all([instance(w, target), instance(w, target)]);
  const [alice, bob] = [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())];
  target.set("/listed", { body: page("One") });
  const hook = receiver(target, "/listed-hook");
  const made = [];
  for (const [who, interval] of [
    [alice, 300],
    [alice, 600],
    [bob, 300],
  ] as const) {
    made.push(
      dataOf(await a.callAs(who.address, watchEndpoint, { url: target.url("/listed"), webhook: hook.url, interval })),
    );
    w.advance(1);
  }
  const listed = await signedIn(b, "/v1/state/watches", alice);
  assert.equal(listed.status, 200);
  assert.equal(listed.headers.get("payment-response"), null, "nothing was paid");
  const { watches } = (await listed.json()).data;
  assert.deepEqual(
    watches.map((x: { id: string; interval: number; status: string; checks: number }) => [
      x.id,
      x.interval,
      x.status,
      x.checks,
    ]),
    [
      [made[0].id, 300, "active", 0],
      [made[1].id, 600, "active", 0],
    ],
  );
  assert.ok(!JSON.stringify(watches).includes(made[0].secret), "never a watch's secret");
  const bobs = (await (await signedIn(a, "/v1/state/watches", bob)).json()).data.watches;
  assert.deepEqual(
    bobs.map((x: { id: string }) => x.id),
    [made[2].id],
  );
});
