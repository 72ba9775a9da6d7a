import type { LocalAccount } from "viem/accounts";
import { networkOfV1Name } from "../../../../../core/x402/requirements.ts";
import { freshAccount } from "../../../../helpers/paid.ts";
import { signAuthorization } from "../../../../helpers/sign.ts";
import type { EvmSide } from "../chains.ts";
import { holdRun, startedBefore } from "../plugin.ts";
import { challengeOf, httpSend, mcpSend, paymentHeaders } from "../transport.ts";
import { batchOf, failingBatch, item, type Payer, type Payment, type Req, type Way } from "../way.ts";
import type { World } from "../world.ts";

interface ExactOptions extends Pick<Way, "name" | "offers" | "na" | "variants"> {
  version: 1 | 2;
  side: (world: World) => EvmSide;
  decimals: number;
  /** Pays over /mcp (the payload in `_meta`) instead of an HTTP header. */
  mcp?: boolean;
  /** Pays a call with parts instead of the route itself. */
  container?: "batch" | "bundle";
}

/** What each kind of call writes, and its price in USDC atomic units. */
const calls = {
  plain: {
    price: 1000n,
    write: (key: string) => ({ req: { name: "matrix-write", args: { key } }, keys: [key] }),
    wallet: (key: string) => ({ req: { name: "matrix-mine", args: { key } }, keys: [key] }),
    failing: failingBatch,
  },
  batch: {
    price: 50_000n,
    write: (key: string) => ({ req: batchOf(item(key)), keys: [key] }),
    wallet: (key: string) => ({ req: batchOf(item(`${key}-w`), item(key, "ok", "matrix-mine")), keys: [key] }),
    // A failing write two levels down: in a bundle that is an item of the batch.
    failing: (key: string) => ({
      req: batchOf(item(`${key}-1`), { path: "/v1/matrix-bundle", params: { key: `${key}-2`, effect: "fails" } }),
      quote: 50_000n,
      delivered: [
        { key: `${key}-1`, price: 1000n },
        { key: `${key}-2-a`, price: 1000n },
      ],
      failed: [{ key: `${key}-2-b`, price: 1000n }],
    }),
  },
  bundle: {
    price: 2000n,
    write: (key: string) => ({ req: { name: "matrix-bundle", args: { key } }, keys: [`${key}-a`, `${key}-b`] }),
    wallet: (key: string) => ({ req: { name: "matrix-bundle", args: { key } }, keys: [`${key}-b`] }),
    failing: (key: string) => ({
      req: { name: "matrix-bundle", args: { key, effect: "fails" } },
      quote: 2000n,
      delivered: [{ key: `${key}-a`, price: 1000n }],
      failed: [{ key: `${key}-b`, price: 1000n }],
    }),
  },
};

const upperHex = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;

/** EIP-3009 `exact` on an EVM option: v1 (X-PAYMENT) or v2 (PAYMENT-SIGNATURE, or `_meta` over MCP). */
export function exactWay(world: () => World, o: ExactOptions): Way {
  const side = () => o.side(world());
  const kind = calls[o.container ?? "plain"];
  const units = (atomic6: bigint) => atomic6 * 10n ** BigInt(o.decimals - 6);

  interface Signing {
    change?: Record<string, string>;
    signer?: LocalAccount;
    paymentId?: string;
    extensions?: Record<string, unknown>;
  }
  async function signed(account: LocalAccount, req: Req, s: Signing = {}) {
    const { v2, v1 } = await challengeOf(world().one, req);
    const network = side().network;
    if (o.version === 1) {
      const accepted = v1.accepts.find((a: { network: string }) => networkOfV1Name(a.network) === network);
      const payload = await signAuthorization(account, accepted, s.change, s.signer);
      return { x402Version: 1, scheme: "exact", network: accepted.network, payload };
    }
    const accepted = v2.accepts.find((a: any) => a.scheme === "exact" && a.network === network);
    const payload = await signAuthorization(account, accepted, s.change, s.signer);
    const extensions = {
      ...(s.paymentId ? { "payment-identifier": { info: { required: false, id: s.paymentId } } } : {}),
      ...s.extensions,
    };
    return {
      x402Version: 2,
      resource: v2.resource,
      accepted,
      payload,
      ...(Object.keys(extensions).length ? { extensions } : {}),
    };
  }
  const paymentOf = (req: Req, body: { x402Version: number }): Payment => ({
    send: (to, signal) => (o.mcp ? mcpSend(to, req, body, signal) : httpSend(to, req, paymentHeaders(body), signal)),
  });
  const pays = async (account: LocalAccount, req: Req, s?: Signing) => paymentOf(req, await signed(account, req, s));

  type EvmPayer = Payer & { account: LocalAccount };
  async function payerOf(account: LocalAccount): Promise<EvmPayer> {
    const s = side();
    const [from, start] = await Promise.all([s.block(), s.balance(account.address)]);
    return {
      id: account.address,
      account,
      pay: (req, p) => pays(account, req, { paymentId: p?.paymentId }),
      async spent() {
        const [balance, transfers] = await Promise.all([
          s.balance(account.address),
          s.transfers(account.address, from),
        ]);
        return { value: start - balance, transfers: transfers.count };
      },
    };
  }
  async function funded(calls: number) {
    const account = freshAccount();
    await side().fund(account, units(kind.price * BigInt(calls)));
    return payerOf(account);
  }

  return {
    name: o.name,
    offers: o.offers,
    na: o.na,
    variants: o.variants,
    decimals: o.decimals,
    get charge() {
      return units(kind.price);
    },
    write: kind.write,
    wallet: kind.wallet,
    failing: kind.failing,
    payer: (n = 1) => funded(n),
    victim: () => funded(1),
    forge: async (req, victim) => ({ payment: await pays(freshAccount(), req, { change: { from: victim.id } }) }),
    async respell(payer, req) {
      const body = (await signed((payer as EvmPayer).account, req)) as any;
      const a = body.payload.authorization;
      const spelled = (change: Record<string, string>) =>
        paymentOf(req, { ...body, payload: { ...body.payload, authorization: { ...a, ...change } } });
      return [
        spelled({}),
        spelled({ nonce: upperHex(a.nonce) }),
        spelled({ from: a.from.toLowerCase() }),
        spelled({ from: upperHex(a.from), to: a.to.toLowerCase() }),
        spelled({ validBefore: `0${a.validBefore}`, validAfter: `00${a.validAfter}` }),
        spelled({ nonce: upperHex(a.nonce), from: a.from.toLowerCase(), validBefore: `0${a.validBefore}` }),
      ];
    },
    forged: (req, extensions) => pays(freshAccount(), req, { signer: freshAccount(), extensions }),
    unfunded: (req) => pays(freshAccount(), req),
    async costs(w, key) {
      // A wallet funded for one call sends five at once: the service must not send settlements that will revert.
      const payer = await funded(1);
      const s = side();
      const from = await s.block();
      const payments = await Promise.all(Array.from({ length: 5 }, (_, i) => payer.pay(kind.write(`${key}-${i}`).req)));
      const answers = await Promise.all(payments.map((p, i) => p.send(w.instances[i % 2])));
      return [
        {
          what: "answers from a wallet funded for one",
          actual: answers.filter((a) => a.status === 200).length,
          atMost: 1,
        },
        { what: "settlements sent that reverted", actual: (await s.relayerReverts(from)).count, atMost: 0 },
      ];
    },
    async expiring(req, keys) {
      const payer = await funded(1);
      const s = side();
      const validBefore = Math.max(await s.now(), Math.floor(Date.now() / 1000)) + 12;
      const payment = await pays(payer.account, req, { change: { validBefore: String(validBefore) } });
      const hold = holdRun(keys[0]);
      const answer = payment.send(world().one);
      await startedBefore(hold, answer);
      await s.setNextTimestamp(validBefore + 1);
      hold.release();
      return { answer: await answer, payer };
    },
    loseReply() {
      side().proxy.loseSendReplies(1);
      return { done: () => side().proxy.loseSendReplies(0) };
    },
  };
}
