import { after, test } from "node:test";
import assert from "node:assert/strict";
import {
  createPublicClient,
  encodeDeployData,
  encodePacked,
  http,
  encodeFunctionData,
  keccak256,
  toEventSignature,
  toFunctionSignature,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from "viem";
import { compileContract } from "../../../core/x402/devnet/compile.ts";
import { duelEscrowAbi } from "../../../plugins/duel/_abi.ts";
import { score, shoe } from "../../../plugins/duel/_shoe.ts";
import { startDuelWorld } from "./_world.ts";

const world = await startDuelWorld();
after(() => world.stop());
const escrow = world.devnet.duelEscrow;
const artifact = await compileContract("DuelEscrow", new URL("../../../plugins/duel/contracts/", import.meta.url));
const seeds: Hex[] = Array.from({ length: 40 }, (_, i) => keccak256(toHex(`duel seed ${i}`)));
// One HTTP request for many eth_calls: the parity checks make hundreds.
const batched = createPublicClient({ transport: http(world.devnet.rpcUrl, { batch: { batchSize: 1000 } }) });
const read = batched.readContract.bind(batched);

test("duel contract: the typed ABI matches the ABI solc emits", () => {
  const signatures = (abi: Abi) =>
    abi
      .map((item) =>
        item.type === "function"
          ? toFunctionSignature(item)
          : item.type === "event"
            ? `event ${toEventSignature(item)}`
            : item.type === "error"
              ? `error ${item.name}(${item.inputs.map((i) => i.type).join(",")})`
              : item.type,
      )
      .sort();
  assert.deepEqual(signatures(duelEscrowAbi), signatures(artifact.abi));
});

test("duel contract: the TypeScript shoe equals the contract's for 40 seeds and both sides", async () => {
  const onChain = await Promise.all(
    seeds.flatMap((seed) =>
      [true, false].map((sideA) =>
        read({ address: escrow, abi: duelEscrowAbi, functionName: "shoe", args: [seed, sideA] }),
      ),
    ),
  );
  const ours = seeds.flatMap((seed) => [true, false].map((sideA) => shoe(seed, sideA)));
  assert.deepEqual(
    onChain.map((cards) => [...cards]),
    ours,
  );
  assert.equal(new Set(ours[0]).size, 52);
  assert.notDeepEqual(ours[0], ours[1], "the two sides draw different cards");
});

test("duel contract: /duel/shoe serves the contract's draw order and hand scores", async () => {
  for (const seed of seeds.slice(0, 6)) {
    for (const sideA of [true, false]) {
      const { data } = await world.free(`/duel/shoe?seed=${seed}&sideA=${sideA}`);
      const cards = await read({ address: escrow, abi: duelEscrowAbi, functionName: "shoe", args: [seed, sideA] });
      assert.deepEqual(
        data.cards.map((c: any) => c.card),
        [...cards],
      );
      const scores = await Promise.all(
        data.hands.map((h: any) =>
          read({ address: escrow, abi: duelEscrowAbi, functionName: "score", args: [seed, sideA, h.hits] }),
        ),
      );
      assert.deepEqual(
        data.hands.map((h: any) => BigInt(h.score)),
        scores,
      );
    }
  }
});

test("duel contract: hand scores agree for both sides and every number of hits, two-card 21s included", async () => {
  // The first 12 seeds, plus those whose first two cards make 21 on either side.
  const naturals = seeds
    .slice(12)
    .filter((seed) => score(shoe(seed, true), 0) === 22 || score(shoe(seed, false), 0) === 22);
  const cases = [...seeds.slice(0, 12), ...naturals].flatMap((seed) =>
    [true, false].flatMap((sideA) => Array.from({ length: 10 }, (_, hits) => ({ seed, sideA, hits }))),
  );
  const onChain = await Promise.all(
    cases.map((c) =>
      read({ address: escrow, abi: duelEscrowAbi, functionName: "score", args: [c.seed, c.sideA, c.hits] }),
    ),
  );
  const ours = cases.map((c) => score(shoe(c.seed, c.sideA), c.hits));
  assert.deepEqual(onChain.map(Number), ours);
  assert.ok(ours.includes(0) && ours.includes(22), "the seeds cover busts and two-card 21s");
});

test("duel contract: the README's move commitment, computed on the player's machine, equals the contract's moveCommitment", async () => {
  const salt = keccak256(toHex("salt"));
  for (const [duelId, player, hits] of [
    [1, world.players.a.address, 0],
    [77, world.players.b.address, 9],
  ] as [number, Address, number][]) {
    const local = keccak256(
      encodePacked(["uint256", "address", "uint8", "bytes32"], [BigInt(duelId), player, hits, salt]),
    );
    assert.equal(
      local,
      await read({
        address: escrow,
        abi: duelEscrowAbi,
        functionName: "moveCommitment",
        args: [BigInt(duelId), player, hits, salt],
      }),
    );
  }
});

test("duel contract: reveal and reveal-moves templates plus the appended words make the contract's calldata", async () => {
  const secret = keccak256(toHex("secret"));
  const reveal = await world.free("/duel/tx?action=reveal&duelId=42");
  assert.deepEqual(Object.keys(reveal).sort(), ["append", "dataPrefix", "to", "value"]);
  assert.equal(
    `${reveal.dataPrefix}${secret.slice(2)}`,
    encodeFunctionData({ abi: duelEscrowAbi, functionName: "reveal", args: [42n, secret] }),
  );
  const moves = await world.free("/duel/tx?action=reveal-moves&duelId=42");
  assert.equal(
    `${moves.dataPrefix}${(7).toString(16).padStart(64, "0")}${secret.slice(2)}`,
    encodeFunctionData({ abi: duelEscrowAbi, functionName: "revealMoves", args: [42n, 7, secret] }),
  );
});

test("duel contract: the rake can never exceed 10%, at deployment or later, and only the owner changes it", async () => {
  const deployer = world.players.keeper;
  const terms = (rake: number) => [rake, deployer.address, 10n ** 14n, 10n ** 19n, 3600n, 600n] as const;
  const deployData = (rake: number) =>
    encodeDeployData({ abi: duelEscrowAbi, bytecode: artifact.bytecode, args: terms(rake) });
  assert.equal(await world.revertName(deployer, { data: deployData(1001), value: "0x0" }), "RakeAboveCap");
  const hash = await deployer.wallet.sendTransaction({
    account: deployer.wallet.account!,
    chain: deployer.wallet.chain,
    data: deployData(1000),
  });
  const { contractAddress } = await world.chainReader.waitForTransactionReceipt({ hash });
  const capped = contractAddress!;
  assert.equal(await read({ address: capped, abi: duelEscrowAbi, functionName: "rakeBps" }), 1000);
  const setRake = (rake: number) => ({
    to: capped,
    data: encodeFunctionData({ abi: duelEscrowAbi, functionName: "setRake", args: [rake] }),
    value: "0x0" as Hex,
  });
  assert.equal(await world.revertName(deployer, setRake(1001)), "RakeAboveCap");
  assert.equal(await world.revertName(world.players.a, setRake(500)), "NotOwner");
  await world.send(deployer, setRake(250));
  assert.equal(await read({ address: capped, abi: duelEscrowAbi, functionName: "rakeBps" }), 250);
  assert.equal(await read({ address: escrow, abi: duelEscrowAbi, functionName: "MAX_RAKE_BPS" }), 1000);
});
