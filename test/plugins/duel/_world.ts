import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import {
  type BaseError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  encodePacked,
  http,
  keccak256,
  toHex,
  type Address,
  type Hex,
  type TransactionReceipt,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetChain, plannedDevnet, startDevnet, type DevAccount } from "../../../core/x402/devnet/index.ts";
import { duelEscrowAbi } from "../../../plugins/duel/_abi.ts";
import { duelDevnet } from "../../../plugins/duel/_settings.ts";
import { startTestService, upstreamUrlEnv } from "../../helpers/service.ts";

export type Tx = { to: Address; data: Hex; value: Hex };
export type Player = { name: string; address: Address; wallet: WalletClient };

/** A devnet with the escrow, the service pointed at it, and wallets that sign for themselves. */
export async function startDuelWorld() {
  const started = await startDevnet({ contracts: duelDevnet.contracts });
  const devnet = { ...started, duelEscrow: started.contracts.DuelEscrow };
  // As boot does: the settings from what the devnet holds (where plannedDevnet said), its chain for the duel's node.
  assert.deepEqual(started.contracts, plannedDevnet(duelDevnet.contracts ?? []).contracts);
  const env = {
    ...duelDevnet.settings({ ...started, payer: started.accounts.payer, selfUrl: "http://127.0.0.1:4021" }),
    ...upstreamUrlEnv(duelDevnet.chainUpstreams ?? [], () => started.rpcUrl),
  };
  const service = await startTestService({ plugins: ["duel"], env });
  const chain = devnetChain(devnet.rpcUrl);
  const transport = http(devnet.rpcUrl);
  const chainReader = createPublicClient({ chain, transport, pollingInterval: 20 });
  const testClient = createTestClient({ chain, transport, mode: "anvil" });
  const gasSpent = new Map<Address, bigint>();
  const player = (name: string, account: DevAccount): Player => ({
    name,
    address: account.address,
    wallet: createWalletClient({ chain, transport, account: privateKeyToAccount(account.privateKey) }),
  });

  /** Sends the API's transaction from the player's own wallet and counts the gas it paid. */
  async function send(from: Player, tx: Tx): Promise<TransactionReceipt> {
    const hash = await from.wallet.sendTransaction({
      account: from.wallet.account!,
      chain,
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
    });
    const receipt = await chainReader.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    gasSpent.set(from.address, (gasSpent.get(from.address) ?? 0n) + receipt.gasUsed * receipt.effectiveGasPrice);
    return receipt;
  }

  /** The contract's custom error a transaction reverts with (simulated, so nothing is mined). */
  async function revertName(from: Player, tx: Omit<Tx, "to"> & { to?: Address }): Promise<string> {
    try {
      await chainReader.call({ account: from.address, to: tx.to, data: tx.data, value: BigInt(tx.value) });
    } catch (error) {
      const raw = (error as BaseError).walk((e) => typeof (e as { data?: unknown }).data === "string") as {
        data?: Hex;
      } | null;
      assert.ok(raw?.data, `no revert data in ${(error as Error).message}`);
      return decodeErrorResult({ abi: duelEscrowAbi, data: raw.data }).errorName;
    }
    throw new Error("the transaction did not revert");
  }

  async function paid(name: string, input: unknown): Promise<any> {
    const out = await service.call(name, input);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    return out.body;
  }

  async function free(path: string): Promise<any> {
    const res = await service.request(path);
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  }

  /** A fresh secret and its commitment, computed here as the README's recipe says: the service never sees the secret. */
  async function secret(): Promise<{ secret: Hex; commitment: Hex }> {
    const value = toHex(randomBytes(32));
    return { secret: value, commitment: keccak256(value) };
  }

  /** reveal's calldata: the service's prefix, the secret appended here. */
  async function revealOf(duelId: number, secretValue: Hex): Promise<Tx> {
    const template = await free(`/duel/tx?action=reveal&duelId=${duelId}`);
    return { to: template.to, value: template.value, data: `${template.dataPrefix}${secretValue.slice(2)}` as Hex };
  }

  /** commit's calldata for a move commitment computed here (duel id, player, hits, salt, packed). */
  async function commitOf(duelId: number, player: Player, hits: number, salt: Hex): Promise<Tx> {
    const commitment = keccak256(
      encodePacked(["uint256", "address", "uint8", "bytes32"], [BigInt(duelId), player.address, hits, salt]),
    );
    return free(`/duel/tx?action=commit&duelId=${duelId}&commitment=${commitment}`);
  }

  /** reveal-moves' calldata: the service's prefix, hits and salt appended here. */
  async function revealMovesOf(duelId: number, hits: number, salt: Hex): Promise<Tx> {
    const template = await free(`/duel/tx?action=reveal-moves&duelId=${duelId}`);
    return {
      to: template.to,
      value: template.value,
      data: `${template.dataPrefix}${hits.toString(16).padStart(64, "0")}${salt.slice(2)}` as Hex,
    };
  }

  const state = async (duelId: number) => (await paid("duel/state", { duelId })).data;
  const balance = (address: Address) => chainReader.getBalance({ address });
  const gasOf = (address: Address) => gasSpent.get(address) ?? 0n;
  const travel = async (seconds: number) => {
    await testClient.increaseTime({ seconds });
    await testClient.mine({ blocks: 1 });
  };

  /** create then join through the paid composers; the duel id comes from the feed, as an agent would find it. */
  async function openAndJoin(a: Player, b: Player | undefined, stakeEth = 0.01, maxRakeBps?: number) {
    const secretA = await secret();
    await send(a, await paid("duel/create", { commitmentA: secretA.commitment, stake: stakeEth, maxRakeBps }));
    const feed = await free("/duel/feed?limit=100");
    const mine = feed.data.duels.find((d: any) => d.playerA === a.address);
    assert.ok(mine, "the new duel is on the feed");
    const duelId: number = mine.duelId;
    const secretB = await secret();
    if (b) await send(b, await paid("duel/join", { duelId, commitmentB: secretB.commitment }));
    return { duelId, secretA, secretB };
  }

  return {
    devnet,
    service,
    chainReader,
    players: {
      a: player("A", devnet.accounts.others[0]),
      b: player("B", devnet.accounts.others[1]),
      keeper: player("keeper", devnet.accounts.others[2]),
      house: devnet.accounts.payTo.address,
      /** The escrow's owner (payTo), who may change the rake. */
      owner: player("owner", devnet.accounts.payTo),
    },
    send,
    revertName,
    paid,
    free,
    secret,
    revealOf,
    commitOf,
    revealMovesOf,
    state,
    balance,
    gasOf,
    travel,
    openAndJoin,
    async stop() {
      await service.close();
      await devnet.stop();
    },
  };
}

export type DuelWorld = Awaited<ReturnType<typeof startDuelWorld>>;

/** Moves for a hand as the player works them out from /duel/shoe: the best stand, or the first bust. */
export async function chooseHits(
  world: DuelWorld,
  seed: Hex,
  sideA: boolean,
  aim: "best" | "bust" | number,
): Promise<number> {
  const { data } = await world.free(`/duel/shoe?seed=${seed}&sideA=${sideA}`);
  const hands: { hits: number; score: number; bust: boolean }[] = data.hands;
  if (typeof aim === "number") return aim;
  if (aim === "bust") return hands.find((h) => h.bust)!.hits;
  return hands.reduce((best, h) => (h.score > best.score ? h : best)).hits;
}
