import { randomBytes } from "node:crypto";
import { PERMIT2_ADDRESS, permit2WitnessTypes, x402ExactPermit2ProxyAddress } from "@x402/evm";
import { getAddress, maxUint256, type Hex } from "viem";
import type { LocalAccount } from "viem/accounts";
import { testUsdcAbi } from "../../../../../core/x402/devnet/index.ts";
import { freshAccount } from "../../../../helpers/paid.ts";
import type { EvmSide } from "../chains.ts";
import { holdRun, startedBefore } from "../plugin.ts";
import { challengeOf, httpSend, paymentHeaders } from "../transport.ts";
import { failingBatch, type Payer, type Payment, type Req, type Way } from "../way.ts";
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
const writes = {
  write: (key: string) => ({ req: { name: "matrix-write", args: { key } }, keys: [key] }),
  wallet: (key: string) => ({ req: { name: "matrix-mine", args: { key } }, keys: [key] }),
};

/**
 * `exact` through Permit2 on a token without EIP-3009 (the devnet's test DAI, 18 decimals): the permit signed by
 * hand, as an attacker would, in the wire format @x402/evm 2.27's exact client sends.
 */
export function permit2Way(
  world: () => World,
  o: Pick<Way, "name" | "offers" | "na"> & { side: (w: World) => EvmSide; decimals: number },
): Way {
  const side = () => o.side(world());
  const units = (atomic6: bigint) => atomic6 * 10n ** BigInt(o.decimals - 6);

  async function signed(account: LocalAccount, req: Req, s: Permit = {}) {
    const { v2 } = await challengeOf(world().one, req);
    const accepted = v2.accepts.find(
      (a: any) => a.scheme === "exact" && a.network === side().network && a.asset === side().token,
    );
    const permit = {
      from: s.from ?? account.address,
      permitted: { token: getAddress(accepted.asset), amount: accepted.amount as string },
      spender: x402ExactPermit2ProxyAddress as string,
      nonce: s.nonce ?? BigInt(`0x${randomBytes(32).toString("hex")}`).toString(),
      deadline: String(s.deadline ?? Math.floor(Date.now() / 1000) + 290),
      witness: { to: getAddress(accepted.payTo) as string, validAfter: "0" },
    };
    const signature = await (s.signer ?? account).signTypedData({
      domain: { name: "Permit2", chainId: Number(side().network.split(":")[1]), verifyingContract: PERMIT2_ADDRESS },
      types: permit2WitnessTypes,
      primaryType: "PermitWitnessTransferFrom",
      message: {
        permitted: { token: permit.permitted.token, amount: BigInt(permit.permitted.amount) },
        spender: permit.spender as Hex,
        nonce: BigInt(permit.nonce),
        deadline: BigInt(permit.deadline),
        witness: { to: permit.witness.to as Hex, validAfter: 0n },
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

  type Permit2Payer = Payer & { account: LocalAccount };
  /** A payer holding `amount` that gave Permit2 its allowance (the one-time approve). */
  async function funded(amount: bigint): Promise<Permit2Payer> {
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
  const price = units(1000n);

  return {
    name: o.name,
    offers: o.offers,
    na: o.na,
    decimals: o.decimals,
    get charge() {
      return price;
    },
    ...writes,
    failing: failingBatch,
    // At least a batch's quote: the failing-write cell pays the batch.
    payer: (n = 1) => funded(units(50_000n) + price * BigInt(n)),
    victim: () => funded(price),
    forge: async (req, victim) => ({ payment: await pays(freshAccount(), req, { from: victim.id }) }),
    async respell(payer, req) {
      // A nonce short enough that three leading zeros still fit the 78 digits a uint256 may be written in.
      const nonce = BigInt(`0x${randomBytes(8).toString("hex")}`).toString();
      const body = (await signed((payer as Permit2Payer).account, req, { nonce })) as any;
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
      // A wallet funded for one call sends five at once: the service must not send settlements that will revert.
      const payer = await funded(price);
      const s = side();
      const from = await s.block();
      const payments = await Promise.all(
        Array.from({ length: 5 }, (_, i) => payer.pay(writes.write(`${key}-${i}`).req)),
      );
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
      const payer = await funded(price);
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
