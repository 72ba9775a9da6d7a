import { randomBytes } from "node:crypto";
import { x402Client } from "@x402/core/client";
import type { Network, PaymentPayload } from "@x402/core/types";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import {
  BatchSettlementEvmScheme as BatchClient,
  computeChannelId,
  signVoucher,
} from "@x402/evm/batch-settlement/client";
import { encodeAbiParameters, type Address, type Hex } from "viem";
import type { LocalAccount } from "viem/accounts";
import { compileContract } from "../../../../../core/x402/devnet/compile.ts";
import { testUsdcAbi } from "../../../../../core/x402/devnet/index.ts";
import { freshAccount } from "../../../../helpers/paid.ts";
import type { EvmSide } from "../chains.ts";
import { challengeOf, httpSend, paymentHeaders } from "../transport.ts";
import { failingBatch, type Payer, type Payment, type Req, type Way } from "../way.ts";
import type { World } from "../world.ts";
import { escrowAbi, voucherCells } from "./voucher-cells.ts";

export type VoucherPayer = Payer & {
  account: LocalAccount;
  client: x402Client;
  channelId: Hex;
  /** What the service has charged on the channel so far. */
  charged(): Promise<bigint>;
};

/** batch-settlement vouchers on an EVM option, paid with @x402/evm's client (a deposit, then one voucher per call). */
export function voucherWay(
  world: () => World,
  o: Pick<Way, "name" | "offers" | "na" | "last"> & { side: (w: World) => EvmSide; decimals: number },
): Way {
  const side = () => o.side(world());
  const units = (atomic6: bigint) => atomic6 * 10n ** BigInt(o.decimals - 6);
  const rail = () => world().one.batches!.get(side().network)!;
  const write = (key: string) => ({ req: { name: "matrix-write", args: { key } } as Req, keys: [key] });

  async function payloadOf(client: x402Client, req: Req, extensions?: Record<string, unknown>) {
    const { v2 } = await challengeOf(world().one, req);
    const payload = await client.createPaymentPayload(v2);
    return extensions ? { ...payload, extensions: { ...payload.extensions, ...extensions } } : payload;
  }
  /** Sent as @x402/fetch would: a receipt tells the client its channel's new state. */
  const paymentOf = (req: Req, payload: PaymentPayload, client?: x402Client): Payment => ({
    async send(to, signal) {
      const answer = await httpSend(to, req, paymentHeaders(payload), signal);
      const receipt = answer.headers.get("payment-response");
      if (receipt && client)
        await client.handlePaymentResponse({
          paymentPayload: payload,
          requirements: payload.accepted,
          settleResponse: JSON.parse(Buffer.from(receipt, "base64").toString("utf8")),
        });
      return answer;
    },
  });

  function clientOf(account: LocalAccount, deposit: bigint) {
    const s = side();
    const strategy = new BatchClient(toClientEvmSigner(account, s.reader), {
      depositStrategy: () => deposit.toString(),
    });
    const client = new x402Client().register(s.network as Network, strategy).setSpendControls(false);
    client.registerPolicy((_v, accepts) =>
      accepts.filter((a) => a.scheme === "batch-settlement" && a.network === s.network),
    );
    return client;
  }

  /** A payer whose channel holds `calls` writes and a batch's quote, opened by a first paid call. */
  async function funded(calls: number): Promise<VoucherPayer> {
    const account = freshAccount();
    const deposit = units(1000n * BigInt(calls) + 52_000n);
    await side().fund(account, deposit, true);
    const client = clientOf(account, deposit);
    const opening = write(`open-${randomBytes(6).toString("hex")}`).req;
    const first = await payloadOf(client, opening);
    const channelId = (first.payload as { voucher: { channelId: Hex } }).voucher.channelId;
    const opened = await paymentOf(opening, first, client).send(world().one);
    if (opened.status !== 200) throw new Error(`the deposit call answered ${opened.status}`);
    const charged = async () => BigInt((await rail().scheme.getStorage().get(channelId))?.chargedCumulativeAmount ?? 0);
    const start = await charged();
    return {
      id: account.address,
      account,
      client,
      channelId,
      charged,
      async pay(req, p) {
        const id = p?.paymentId ? { "payment-identifier": { info: { required: false, id: p.paymentId } } } : undefined;
        return paymentOf(req, await payloadOf(client, req, id), client);
      },
      spent: async () => ({ value: (await charged()) - start, transfers: 0 }),
    };
  }

  let collector: Promise<Address> | undefined;
  /** The attacker's own deposit collector, deployed once. */
  const giftCollector = (deployer: LocalAccount) =>
    (collector ??= compileContract("GiftDepositCollector", new URL("../", import.meta.url)).then((artifact) =>
      side().deploy(deployer, artifact),
    ));

  return {
    name: o.name,
    offers: o.offers,
    na: o.na,
    last: o.last,
    decimals: o.decimals,
    asUsed: true,
    get charge() {
      return units(1000n);
    },
    write,
    failing: failingBatch,
    payer: (n = 1) => funded(n),
    victim: async () => {
      const account = freshAccount();
      return {
        id: account.address,
        pay: () => Promise.reject(new Error("the victim pays nothing")),
        spent: async () => ({ value: 0n, transfers: 0 }),
      };
    },
    async forge(req, victim) {
      // A channel funded by the attacker through its own collector, naming the victim as payer and itself as the
      // voucher signer: the victim signs nothing.
      const s = side();
      const attacker = freshAccount();
      const deposit = units(10_000n);
      await s.fund(attacker, deposit, true);
      const gift = await giftCollector(attacker);
      await s.send(attacker, { address: s.token, abi: testUsdcAbi, functionName: "approve", args: [gift, deposit] });
      const { v2 } = await challengeOf(world().one, req);
      const accepted = v2.accepts.find((a: any) => a.scheme === "batch-settlement" && a.network === s.network);
      const channelConfig = {
        payer: victim.id as Hex,
        payerAuthorizer: attacker.address,
        receiver: accepted.payTo as Hex,
        receiverAuthorizer: accepted.extra.receiverAuthorizer as Hex,
        token: accepted.asset as Hex,
        withdrawDelay: Number(accepted.extra.withdrawDelay),
        salt: `0x${randomBytes(32).toString("hex")}` as Hex,
      };
      await s.send(attacker, {
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: escrowAbi,
        functionName: "deposit",
        args: [channelConfig, deposit, gift, encodeAbiParameters([{ type: "address" }], [attacker.address])],
      });
      const channelId = computeChannelId(channelConfig, s.network);
      const voucher = await signVoucher(toClientEvmSigner(attacker, s.reader), channelId, accepted.amount, s.network);
      const payload = {
        x402Version: 2,
        resource: v2.resource,
        accepted,
        payload: { type: "voucher", channelConfig, voucher },
      };
      return { payment: paymentOf(req, payload as unknown as PaymentPayload) };
    },
    async respell(payer, req) {
      const payload = (await payloadOf((payer as VoucherPayer).client, req)) as any;
      const { channelConfig: c, voucher: v } = payload.payload;
      const upper = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;
      const spelled = (config: object, voucher: object) =>
        paymentOf(req, {
          ...payload,
          payload: { ...payload.payload, channelConfig: { ...c, ...config }, voucher: { ...v, ...voucher } },
        });
      return [
        spelled({}, {}),
        spelled({}, { channelId: upper(v.channelId) }),
        spelled({}, { maxClaimableAmount: `0${v.maxClaimableAmount}` }),
        spelled({ payer: upper(c.payer), receiver: c.receiver.toLowerCase() }, {}),
        spelled({ salt: upper(c.salt), token: c.token.toLowerCase() }, { channelId: upper(v.channelId) }),
      ];
    },
    async forged(req, extensions) {
      const payer = await funded(1);
      const payload = (await payloadOf(payer.client, req, extensions)) as any;
      const { voucher } = payload.payload;
      const stranger = toClientEvmSigner(freshAccount(), side().reader);
      const bySomeoneElse = await signVoucher(stranger, voucher.channelId, voucher.maxClaimableAmount, side().network);
      return paymentOf(req, { ...payload, payload: { ...payload.payload, voucher: bySomeoneElse } });
    },
    async unfunded(req) {
      const client = clientOf(freshAccount(), units(52_000n));
      return paymentOf(req, await payloadOf(client, req));
    },
    cells: voucherCells({ side, rail, funded, write }),
  };
}
