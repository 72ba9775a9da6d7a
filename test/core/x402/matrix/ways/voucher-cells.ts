import assert from "node:assert/strict";
import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import { parseAbi, parseAbiItem, type Hex } from "viem";
import type { BatchSettlement } from "../../../../../core/x402/schemes/batch-settlement/settlement.ts";
import type { EvmSide } from "../chains.ts";
import type { Req, Way } from "../way.ts";
import type { VoucherPayer } from "./vouchers.ts";

export const escrowAbi = parseAbi([
  "struct ChannelConfig { address payer; address payerAuthorizer; address receiver; address receiverAuthorizer; address token; uint40 withdrawDelay; bytes32 salt; }",
  "function deposit(ChannelConfig config, uint128 amount, address collector, bytes collectorData)",
  "function initiateWithdraw(ChannelConfig config, uint128 amount)",
  "function finalizeWithdraw(ChannelConfig config)",
  "function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)",
]);
const claimedEvent = parseAbiItem("event Claimed(bytes32 indexed channelId, uint128 totalClaimed, uint128 delta)");

interface VoucherRail {
  side(): EvmSide;
  rail(): BatchSettlement;
  funded(calls: number): Promise<VoucherPayer>;
  write(key: string): { req: Req; keys: string[] };
}

/**
 * The classes whose chain side a voucher meets only later, in the claim: a lost reply is the claim's, and a
 * withdrawal races the claim. Counts are read from the escrow (what was claimed) and the service (what it charged).
 */
export function voucherCells({ side, rail, funded, write }: VoucherRail): NonNullable<Way["cells"]> {
  const onChain = async (channelId: Hex) => {
    const [balance, totalClaimed] = await side().reader.readContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi: escrowAbi,
      functionName: "channels",
      args: [channelId],
    });
    return { balance, totalClaimed };
  };
  /** A claim tick: every voucher accepted and not yet claimed, across instances, then the sweep to payTo. */
  const claimTick = () => rail().manager.claimAndSettle();
  const aged = async (channelIds: Hex[], seconds: number) => {
    for (const id of channelIds)
      await rail()
        .scheme.getStorage()
        .updateChannel(id, (c) => c && { ...c, onchainSyncedAt: (c.onchainSyncedAt ?? Date.now()) - seconds * 1000 });
  };
  const asPayer = (payer: VoucherPayer, functionName: string, args: unknown[]) =>
    side().send(payer.account, { address: BATCH_SETTLEMENT_ADDRESS, abi: escrowAbi, functionName, args });

  return {
    async "lost reply"(w, key) {
      const payer = await funded(2);
      for (const i of [0, 1])
        assert.equal((await (await payer.pay(write(`${key}-${i}`).req)).send(w.instances[i])).status, 200);
      const from = await side().block();
      side().proxy.loseSendReplies(1);
      await claimTick().finally(() => side().proxy.loseSendReplies(0));
      const claims = await side().reader.getLogs({
        address: BATCH_SETTLEMENT_ADDRESS,
        event: claimedEvent,
        args: { channelId: payer.channelId },
        fromBlock: from + 1n,
      });
      assert.equal(claims.length, 1, "claims of the channel that landed");
      assert.equal((await onChain(payer.channelId)).totalClaimed, await payer.charged(), "claimed = charged");
    },
    async expiry(w, key) {
      const leaving = await funded(10);
      const honest = await funded(10);
      // The claim timer runs every minute: what was accepted so far is claimed long before a withdrawal matures.
      await claimTick();
      const config = (await rail().scheme.getStorage().get(leaving.channelId))!.channelConfig;
      const { balance, totalClaimed } = await onChain(leaving.channelId);
      await asPayer(leaving, "initiateWithdraw", [config, balance - totalClaimed]);
      // Just before the withdrawal matures, the leaving payer pays three calls with vouchers, the honest one one.
      // The service's clock has no hook: its reads of both channels age by the time the chain's clock moves.
      const waited = Number(config.withdrawDelay) - 12;
      await side().advance(waited);
      await aged([leaving.channelId, honest.channelId], waited);
      const statuses = [];
      for (const i of [0, 1, 2])
        statuses.push((await (await leaving.pay(write(`${key}-w${i}`).req)).send(w.instances[i % 2])).status);
      assert.equal((await (await honest.pay(write(`${key}-h`).req)).send(w.two)).status, 200);
      await side().advance(13);
      await asPayer(leaving, "finalizeWithdraw", [config]);
      await claimTick().catch(() => undefined);
      const served = `served on a withdrawing channel (${statuses}) = claimed`;
      assert.equal((await onChain(leaving.channelId)).totalClaimed, await leaving.charged(), served);
      const others = "another channel's vouchers are claimed";
      assert.equal((await onChain(honest.channelId)).totalClaimed, await honest.charged(), others);
    },
  };
}
