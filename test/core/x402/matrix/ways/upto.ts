import { randomBytes } from "node:crypto";
import { PERMIT2_ADDRESS, uptoPermit2WitnessTypes, x402UptoPermit2ProxyAddress } from "@x402/evm";
import { getAddress, maxUint256, type Hex } from "viem";
import type { LocalAccount } from "viem/accounts";
import { testUsdcAbi } from "../../../../../core/x402/devnet/index.ts";
import { freshAccount } from "../../../../helpers/paid.ts";
import type { EvmSide } from "../chains.ts";
import { holdRun, startedBefore } from "../plugin.ts";
import { challengeOf, httpSend, paymentHeaders } from "../transport.ts";
import { batchOf, failingBatch, item, type Payer, type Payment, type Req, type Way } from "../way.ts";
import type { World } from "../world.ts";

interface Permit {
  from?: string;
  nonce?: string;
  deadline?: number;
  signer?: LocalAccount;
  paymentId?: string;
  extensions?: Record<string, unknown>;
}

const upperHex = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;

/** x402's `upto` on an EVM option: a Permit2 transfer of at most the quote, signed by hand as an attacker would. */
export function uptoWay(
  world: () => World,
  o: Pick<Way, "name" | "offers" | "na"> & { side: (w: World) => EvmSide; decimals: number },
): Way {
  const side = () => o.side(world());
  const units = (atomic6: bigint) => atomic6 * 10n ** BigInt(o.decimals - 6);

  async function signed(account: LocalAccount, req: Req, s: Permit = {}) {
    const { v2 } = await challengeOf(world().one, req);
    const network = side().network;
    const accepted = v2.accepts.find((a: any) => a.scheme === "upto" && a.network === network);
    const permit = {
      from: s.from ?? account.address,
      permitted: { token: getAddress(accepted.asset), amount: accepted.amount as string },
      spender: x402UptoPermit2ProxyAddress as string,
      nonce: s.nonce ?? BigInt(`0x${randomBytes(32).toString("hex")}`).toString(),
      deadline: String(s.deadline ?? Math.floor(Date.now() / 1000) + 290),
      witness: {
        to: getAddress(accepted.payTo) as string,
        facilitator: getAddress(accepted.extra.facilitatorAddress) as string,
        validAfter: "0",
      },
    };
    const signature = await (s.signer ?? account).signTypedData({
      domain: { name: "Permit2", chainId: Number(network.split(":")[1]), verifyingContract: PERMIT2_ADDRESS },
      types: uptoPermit2WitnessTypes,
      primaryType: "PermitWitnessTransferFrom",
      message: {
        permitted: { token: permit.permitted.token, amount: BigInt(permit.permitted.amount) },
        spender: permit.spender as Hex,
        nonce: BigInt(permit.nonce),
        deadline: BigInt(permit.deadline),
        witness: {
          to: permit.witness.to as Hex,
          facilitator: permit.witness.facilitator as Hex,
          validAfter: 0n,
        },
      },
    });
    const extensions = {
      ...(s.paymentId ? { "payment-identifier": { info: { required: false, id: s.paymentId } } } : {}),
      ...s.extensions,
    };
    return {
      x402Version: 2,
      resource: v2.resource,
      accepted,
      payload: { signature, permit2Authorization: permit },
      ...(Object.keys(extensions).length ? { extensions } : {}),
    };
  }
  const paymentOf = (req: Req, body: { x402Version: number }): Payment => ({
    send: (to, signal) => httpSend(to, req, paymentHeaders(body), signal),
  });
  const pays = async (account: LocalAccount, req: Req, s?: Permit) => paymentOf(req, await signed(account, req, s));

  type UptoPayer = Payer & { account: LocalAccount };
  /** A payer holding `amount` (at least one batch's quote: every permit authorizes the quote) that approved Permit2. */
  async function funded(amount: bigint): Promise<UptoPayer> {
    const account = freshAccount();
    const s = side();
    await s.fund(account, amount, true);
    await s.send(account, {
      address: s.token,
      abi: testUsdcAbi,
      functionName: "approve",
      args: [PERMIT2_ADDRESS, maxUint256],
    });
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
  const quote = units(50_000n);

  return {
    name: o.name,
    offers: o.offers,
    na: o.na,
    decimals: o.decimals,
    asUsed: true,
    get charge() {
      return units(1000n);
    },
    write: (key) => ({ req: batchOf(item(key)), keys: [key] }),
    wallet: (key) => ({ req: batchOf(item(key, "ok", "matrix-mine")), keys: [key] }),
    failing: failingBatch,
    payer: (n = 1) => funded(quote + units(1000n * BigInt(n))),
    victim: () => funded(quote),
    forge: async (req, victim) => ({ payment: await pays(freshAccount(), req, { from: victim.id }) }),
    async respell(payer, req) {
      // A nonce short enough that three leading zeros still fit the 78 digits a uint256 may be written in.
      const nonce = BigInt(`0x${randomBytes(8).toString("hex")}`).toString();
      const body = (await signed((payer as UptoPayer).account, req, { nonce })) as any;
      const p = body.payload.permit2Authorization;
      const spelled = (change: Record<string, string>) =>
        paymentOf(req, { ...body, payload: { ...body.payload, permit2Authorization: { ...p, ...change } } });
      return [
        spelled({}),
        spelled({ nonce: `0${p.nonce}` }),
        spelled({ nonce: `00${p.nonce}` }),
        spelled({ from: p.from.toLowerCase() }),
        spelled({ nonce: `000${p.nonce}`, from: upperHex(p.from) }),
        spelled({ deadline: `0${p.deadline}` }),
      ];
    },
    forged: (req, extensions) => pays(freshAccount(), req, { signer: freshAccount(), extensions }),
    unfunded: (req) => pays(freshAccount(), req),
    async costs(w, key) {
      // A wallet holding one quote signs three permits for three batches that each use the whole quote.
      const payer = await funded(quote);
      const s = side();
      const from = await s.block();
      const reqs = [0, 1, 2].map((i) => batchOf(item(`${key}-${i}`, "ok", "matrix-dear")));
      const payments = await Promise.all(reqs.map((req) => payer.pay(req)));
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
      const payer = await funded(quote);
      const s = side();
      const deadline = Math.max(await s.now(), Math.floor(Date.now() / 1000)) + 12;
      const payment = await pays(payer.account, req, { deadline });
      const hold = holdRun(keys[0]);
      const answer = payment.send(world().one);
      await startedBefore(hold, answer);
      await s.setNextTimestamp(deadline + 1);
      hold.release();
      return { answer: await answer, payer };
    },
    loseReply() {
      side().proxy.loseSendReplies(1);
      return { done: () => side().proxy.loseSendReplies(0) };
    },
  };
}
