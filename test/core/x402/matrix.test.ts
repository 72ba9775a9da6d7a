// test: own-process: heavy: every class of endpoint by every way to pay
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { copies } from "./matrix/classes/copies.ts";
import { cost } from "./matrix/classes/cost.ts";
import { expiry } from "./matrix/classes/expiry.ts";
import { failingWrite } from "./matrix/classes/failing-write.ts";
import { hangUps } from "./matrix/classes/hang-ups.ts";
import { identity } from "./matrix/classes/identity.ts";
import { lostReply } from "./matrix/classes/lost-reply.ts";
import { schemas } from "./matrix/classes/schemas.ts";
import { spellings } from "./matrix/classes/spellings.ts";
import { units } from "./matrix/classes/units.ts";
import { offeredWays } from "./matrix/offers.ts";
import { tableOf, type Result } from "./matrix/table.ts";
import { classes as descriptions, classNames, type ClassName, type Way } from "./matrix/way.ts";
import { creditWay } from "./matrix/ways/credit.ts";
import { exactWay } from "./matrix/ways/exact.ts";
import { signInWay } from "./matrix/ways/sign-in.ts";
import { solanaWay } from "./matrix/ways/solana.ts";
import { permit2Way } from "./matrix/ways/permit2.ts";
import { uptoWay } from "./matrix/ways/upto.ts";
import { voucherWay } from "./matrix/ways/vouchers.ts";
import { startWorld, type World } from "./matrix/world.ts";

/**
 * The attack matrix: every class of attack against every way to pay the service accepts, each cell asserting
 * counts (handler runs, writes, transfers, credits, value kept, lamports, event-loop delay) on one world: an EVM
 * devnet, a second EVM chain with an 18-decimal token, the local Solana chain, two instances on one redis-server.
 * A way to pay is one adapter (./matrix/ways), a class one function (./matrix/classes); the matrix is their
 * product. The last test fails when a way the service offers has no row, or a cell is missing; the table is
 * printed at the end: `node test/run.mjs test/core/x402/matrix.test.ts`.
 */
let world: World;
const w = () => world;

const v1NoExtensions = "x402 v1 payloads carry no extensions";
const partsPaidByExactV2 = "the call's payment is exact v2's (that row); its parts add nothing to";
const ways: Way[] = [
  exactWay(w, {
    name: "exact v1",
    version: 1,
    side: (x) => x.evm,
    decimals: 6,
    offers: ["v1 exact eip155 6"],
    na: { schema: v1NoExtensions },
  }),
  exactWay(w, { name: "exact v2", version: 2, side: (x) => x.evm, decimals: 6, offers: ["v2 exact eip155 6"], na: {} }),
  uptoWay(w, { name: "upto", side: (x) => x.evm, decimals: 6, offers: ["v2 upto eip155 6"], na: {} }),
  permit2Way(w, {
    name: "exact-permit2",
    side: (x) => x.evmDai,
    decimals: 18,
    offers: ["v2 exact permit2 eip155 18"],
    na: {},
  }),
  voucherWay(w, {
    name: "vouchers",
    side: (x) => x.evm,
    decimals: 6,
    offers: ["v2 batch-settlement eip155 6"],
    na: {},
    last: ["expiry"],
  }),
  solanaWay(w, { name: "Solana exact v2", version: 2, offers: ["v2 exact solana"], na: {} }),
  solanaWay(w, { name: "Solana exact v1", version: 1, offers: ["v1 exact solana"], na: { schema: v1NoExtensions } }),
  creditWay(w, {
    name: "credit codes",
    offers: ["credit"],
    na: {
      schema: "a credit code carries no extension and no pattern",
      "lost reply": "a credit is spent in the store: no chain, no reply to lose",
      expiry: "a credit is taken before the handler runs; a code neither expires nor is withdrawn",
    },
  }),
  signInWay(w, {
    name: "sign-in",
    offers: ["sign-in"],
    na: {
      "hang-ups": "a sign-in pays nothing: a caller that hangs up loses nothing and is owed nothing",
      "failing write": "a signed-in route writes nothing",
      units: "a sign-in moves no value",
      schema: "the sign-in's message is checked field by field; no schema of the caller's is read",
      "lost reply": "a sign-in sends nothing to a chain: no reply to lose",
      expiry: "a sign-in is checked before the handler runs and pays nothing that could be withdrawn",
    },
  }),
  exactWay(w, { name: "MCP", version: 2, side: (x) => x.evm, decimals: 6, mcp: true, offers: ["mcp"], na: {} }),
  exactWay(w, {
    name: "batch",
    version: 2,
    side: (x) => x.evm,
    decimals: 6,
    container: "batch",
    offers: ["parts: batch"],
    na: { spellings: `${partsPaidByExactV2} its spellings`, schema: `${partsPaidByExactV2} its extensions` },
  }),
  exactWay(w, {
    name: "bundle",
    version: 2,
    side: (x) => x.evm,
    decimals: 6,
    container: "bundle",
    offers: ["parts: bundle"],
    na: { spellings: `${partsPaidByExactV2} its spellings`, schema: `${partsPaidByExactV2} its extensions` },
  }),
  exactWay(w, {
    name: "18 decimals",
    version: 2,
    side: (x) => x.evm18,
    decimals: 18,
    offers: ["v2 exact eip155 18", "v2 upto eip155 18", "v2 batch-settlement eip155 18"],
    na: {},
    variants: [
      uptoWay(w, { name: "upto on the 18-decimal option", side: (x) => x.evm18, decimals: 18, offers: [], na: {} }),
      voucherWay(w, {
        name: "vouchers on the 18-decimal option",
        side: (x) => x.evm18,
        decimals: 18,
        offers: [],
        na: {},
      }),
    ],
  }),
];

const run: Record<ClassName, (way: Way, world: World, key: string) => Promise<void>> = {
  copies,
  "hang-ups": hangUps,
  "failing write": failingWrite,
  identity,
  spellings,
  units,
  schema: schemas,
  cost,
  "lost reply": lostReply,
  expiry,
};

const results = new Map<string, Result>();
const cellOf = (cls: ClassName, way: Way) => `${cls} × ${way.name}`;
let cells = 0;

function register(cls: ClassName, way: Way) {
  const cell = cellOf(cls, way);
  const reason = way.na[cls];
  if (reason) return void results.set(cell, { status: "n/a", note: reason });
  test(`${cls}: ${way.name}`, async () => {
    results.set(cell, { status: "FAIL", note: "did not finish" });
    const key = `c${++cells}-${randomBytes(3).toString("hex")}`;
    try {
      const custom = way.cells?.[cls];
      if (custom) await custom(world, key);
      else if (run[cls]) await run[cls](way, world, key);
      else throw new Error(`no function for the class ${cls}, and ${way.name} names no reason it does not apply`);
      results.set(cell, { status: "pass" });
    } catch (error) {
      const e = error as { message?: string; actual?: unknown; expected?: unknown };
      const got = typeof e.expected === "boolean" || !("expected" in e) ? "" : ` (${e.actual}, not ${e.expected})`;
      results.set(cell, { status: "FAIL", note: `${String(e.message ?? error).split("\n")[0]}${got}` });
      throw error;
    }
  });
}

before(async () => {
  world = await startWorld();
});
after(async () => {
  console.log(tableOf(classNames, descriptions, ways, results, cellOf));
  await world?.stop();
});

// Cells that move a chain's clock far ahead (a voucher's withdrawal delay) run after every other cell.
const product = classNames.flatMap((cls) => ways.map((way) => [cls, way] as const));
const last = ([cls, way]: readonly [ClassName, Way]) => way.last?.includes(cls) ?? false;
for (const [cls, way] of product.filter((c) => !last(c))) register(cls, way);
for (const [cls, way] of product.filter(last)) register(cls, way);

test("matrix: every way to pay the service offers has a row, and every class a cell in it", async () => {
  const rows = new Set(ways.flatMap((way) => way.offers));
  assert.deepEqual(
    (await offeredWays(world)).filter((offer) => !rows.has(offer)),
    [],
    "offered without a row in the matrix",
  );
  assert.deepEqual(
    product.map(([cls, way]) => cellOf(cls, way)).filter((cell) => !results.has(cell)),
    [],
    "cells that never ran",
  );
  assert.deepEqual(
    Object.keys(run).filter((cls) => !classNames.includes(cls as ClassName)),
    [],
    "classes outside the matrix",
  );
});
