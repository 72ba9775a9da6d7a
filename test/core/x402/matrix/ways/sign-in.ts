import assert from "node:assert/strict";
import { SIGN_IN_WITH_X, encodeSIWxHeader, type SIWxPayload } from "@x402/extensions/sign-in-with-x";
import type { LocalAccount } from "viem/accounts";
import { freshAccount } from "../../../../helpers/paid.ts";
import { signChallenge } from "../../../../helpers/sign-in.ts";
import { meter, race } from "../counts.ts";
import { runsOf, seen, writesOf } from "../plugin.ts";
import { challengeOf, httpSend } from "../transport.ts";
import type { Payment, Req, Way } from "../way.ts";
import type { Instance, World } from "../world.ts";

const route = (key: string): Req => ({ name: "matrix-signed-in", args: { key } });

/** A sign-in for `req` signed by `account`, made by the extension's own client helper from the route's 402. */
async function signIn(to: Instance, req: Req, account: LocalAccount): Promise<SIWxPayload> {
  const { v2 } = await challengeOf(to, req);
  return (await signChallenge(v2.extensions[SIGN_IN_WITH_X], account)).payload;
}

const sending = (req: Req, payload: SIWxPayload): Payment => ({
  send: (to, signal) => httpSend(to, req, { [SIGN_IN_WITH_X]: encodeSIWxHeader(payload) }, signal),
});

/** Nothing of the wallet's came back, and the call moved nothing. */
function refusedBare(answer: { status: number; body: any; headers: Headers }, wallet: string) {
  assert.equal(answer.status, 401, JSON.stringify(answer.body));
  assert.ok(!JSON.stringify(answer.body).toLowerCase().includes(wallet.toLowerCase().slice(2)));
  assert.equal(answer.headers.get("payment-response"), null);
}

/**
 * Sign-in (sign-in-with-x) as a way in: it pays nothing, so what the matrix asks of it is that nothing it reaches is
 * paid and nothing paid is reachable with it, and that a sign-in is one wallet's, once, wherever it is sent.
 */
export function signInWay(world: () => World, o: Pick<Way, "name" | "offers" | "na">): Way {
  const w = world;
  return {
    ...o,
    decimals: 6,
    charge: 0n,
    write: (key) => ({ req: route(key), keys: [key] }),
    payer: async () => {
      const account = freshAccount();
      return {
        id: account.address.toLowerCase(),
        pay: async (req) => sending(req, await signIn(w().one, req, account)),
        spent: async () => ({ value: 0n, transfers: 0 }),
      };
    },
    cells: {
      // One sign-in sent at once to both instances: its nonce is claimed once across them.
      async copies(world, key) {
        const account = freshAccount();
        const payload = await signIn(world.one, route(key), account);
        const answers = await race(world, [sending(route(key), payload), sending(route(key), payload)], key);
        assert.deepEqual(answers.map((a) => a.status).sort(), [200, 401]);
        assert.equal(runsOf(key), 1, "the handler ran once");
        assert.deepEqual(seen.payers.get(key), [account.address.toLowerCase()]);
        refusedBare(answers.find((a) => a.status === 401)!, account.address);
      },
      // Another wallet's signature naming the victim; the victim's own sign-in on the paid routes, and a payment on
      // the signed-in one: nothing runs, nothing is written, nothing is charged.
      async identity(world, key) {
        const victim = freshAccount();
        const attacker = await signIn(world.one, route(key), freshAccount());
        refusedBare(
          await sending(route(key), { ...attacker, address: victim.address }).send(world.two),
          victim.address,
        );
        for (const name of ["matrix-write", "matrix-mine"]) {
          const paid: Req = { name, args: { key: `${key}-${name}` } };
          const own = await signIn(world.one, route(key), victim);
          const answer = await httpSend(world.one, paid, { [SIGN_IN_WITH_X]: encodeSIWxHeader(own) });
          assert.equal(answer.status, 402, `${name} still asks for a payment`);
          assert.equal(runsOf(`${key}-${name}`), 0);
          assert.equal(await writesOf(world.one.store, `${key}-${name}`), 0);
        }
        const code = await world.one.credits.issue(1000n, "attack matrix: a credit on a signed-in route");
        const credit = await httpSend(world.one, route(key), { "x-credit-code": code });
        assert.equal(credit.status, 402);
        assert.deepEqual((await challengeOf(world.one, route(key))).v2.accepts, [], "nothing to pay");
        assert.equal(await world.one.credits.balance(code), 1000n, "the code was not spent");
        assert.equal(runsOf(key), 0);
      },
      // Every spelling of the address over the same signature is the same wallet's one sign-in: it works once.
      async spellings(world, key) {
        const account = freshAccount();
        const payload = await signIn(world.one, route(key), account);
        const spelled = [payload.address, payload.address.toLowerCase(), `0x${payload.address.slice(2).toUpperCase()}`];
        const answers = [];
        for (const [i, address] of spelled.entries())
          answers.push(await sending(route(key), { ...payload, address }).send(world.instances[i % 2]));
        assert.deepEqual(
          answers.map((a) => a.status),
          [200, 401, 401],
        );
        for (const refused of answers.slice(1)) refusedBare(refused, account.address);
        assert.equal(runsOf(key), 1);
        assert.deepEqual(seen.payers.get(key), [account.address.toLowerCase()]);
      },
      // Forged sign-ins cost no transaction, no lamports, and at most one read of the chain each.
      async cost(world, key) {
        const spent = await meter(world);
        const forged = 10;
        for (let i = 0; i < forged; i++) {
          const payload = await signIn(world.one, route(`${key}-${i}`), freshAccount());
          const answer = await sending(route(`${key}-${i}`), { ...payload, address: freshAccount().address }).send(
            world.instances[i % 2],
          );
          assert.equal(answer.status, 401);
        }
        const used = await spent();
        assert.equal(used.sends, 0);
        assert.equal(used.lamports, 0n);
        assert.ok(used.rpc <= forged, `${used.rpc} RPC calls for ${forged} forged sign-ins`);
      },
    },
  };
}
