import { randomBytes } from "node:crypto";
import { freshAccount } from "../../../../helpers/paid.ts";
import { httpSend } from "../transport.ts";
import { failingBatch, type Payer, type Payment, type Req, type Way } from "../way.ts";
import type { World } from "../world.ts";

/** Credit codes: a bearer balance in USDC atomic units, spent with X-CREDIT-CODE instead of a payment. */
export function creditWay(world: () => World, o: Pick<Way, "name" | "offers" | "na">): Way {
  const credits = () => world().one.credits;
  const paymentOf = (req: Req, code: string): Payment => ({
    send: (to, signal) => httpSend(to, req, { "x-credit-code": code }, signal),
  });
  type CreditPayer = Payer & { code: string };
  async function funded(calls: number): Promise<CreditPayer> {
    const issued = 1000n * BigInt(calls);
    const code = await credits().issue(issued, "attack matrix");
    return {
      id: "",
      code,
      pay: async (req) => paymentOf(req, code),
      spent: async () => ({ value: issued - ((await credits().balance(code)) ?? 0n), transfers: 0 }),
    };
  }
  return {
    name: o.name,
    offers: o.offers,
    na: o.na,
    decimals: 6,
    charge: 1000n,
    write: (key) => ({ req: { name: "matrix-write", args: { key } }, keys: [key] }),
    failing: failingBatch,
    payer: (n = 1) => funded(n),
    victim: async () => ({
      id: freshAccount().address,
      pay: () => Promise.reject(new Error("the victim pays nothing")),
      spent: async () => ({ value: 0n, transfers: 0 }),
    }),
    // A code names no wallet: whatever identity the attacker wants, the route gets none.
    async forge(req) {
      const attacker = await funded(1);
      return { payment: await attacker.pay(req), attacker };
    },
    // The code is the whole key: no other spelling reaches its balance (HTTP trims what surrounds a header value).
    respell: async (payer, req) =>
      [(payer as CreditPayer).code, ` ${(payer as CreditPayer).code}`, `${(payer as CreditPayer).code}\t`].map((code) =>
        paymentOf(req, code),
      ),
    forged: async (req) => paymentOf(req, `cr_${randomBytes(18).toString("base64url")}`),
    unfunded: async (req) => paymentOf(req, await credits().issue(0n, "attack matrix, empty")),
  };
}
