import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeAbiParameters, hashTypedData, keccak256, toHex, type Hex } from "viem";
import { attention } from "../../../plugins/bet/_environments.ts";
import { minOddsRaw, oddsToRaw } from "../../../plugins/bet/_odds.ts";
import { betTypedData, betTypes } from "../../../plugins/bet/_typed-data.ts";

/** The Relayer's `_CLIENTBETDATA_TYPEHASH()`, `_CLIENTDATA_TYPEHASH()` and `_SUBBET_TYPEHASH()` (research/onchain-products.md 1.5). */
const protocol = {
  ClientBetData: "0xc4a3918dcfe0523203c35fa17d06e6f1eb007646cd3b66ba01296631bc098e51",
  ClientData: "0x176eecf3e3a6313504ae79798e2c87536cb20eb364b64f7001c7c780f5d3154d",
  SubBet: "0x3db4c6f0fa66c93eff32759448e8d4f472140b902b943c223c607ff2681ecfe6",
} as const;

const domain = {
  chainId: 137,
  core: "0xF9548Be470A4e130c90ceA8b179FCD66D2972AC7",
  affiliate: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
  attention,
} as const;
const raw = {
  conditionId: "300610060000000000847930280000000000002435620690",
  outcomeId: "29",
  amountRaw: "10500000",
  minOdds: "1760000000000",
  nonce: "1778500000000123",
  expiresAt: 1778500300,
  relayerFeeAmount: "23841",
};

/** EIP-712 encodeType: the struct, then the structs it references, sorted by name. */
function encodeType(name: keyof typeof betTypes): string {
  const own = (type: string) =>
    `${type}(${betTypes[type as keyof typeof betTypes].map((f) => `${f.type} ${f.name}`).join(",")})`;
  const referenced = new Set<string>();
  const visit = (type: string) => {
    for (const field of betTypes[type as keyof typeof betTypes]) {
      const base = field.type.replace(/\[\]$/, "");
      if (base in betTypes && !referenced.has(base)) {
        referenced.add(base);
        visit(base);
      }
    }
  };
  visit(name);
  referenced.delete(name);
  return own(name) + [...referenced].sort().map(own).join("");
}

test("bet typed data: each type hash equals the Azuro Relayer's", () => {
  for (const name of Object.keys(protocol) as (keyof typeof protocol)[]) {
    assert.equal(keccak256(toHex(encodeType(name))), protocol[name], name);
  }
});

test("bet typed data: viem's digest of the served typed data equals the protocol's own encoding", () => {
  const typed = betTypedData(domain, raw);
  const word = (types: string, values: unknown[]) =>
    keccak256(
      encodeAbiParameters(
        types.split(",").map((type) => ({ type })),
        values,
      ),
    );
  const clientData = word("bytes32,bytes32,address,address,uint256,uint256,uint256,bool,bool,bool", [
    protocol.ClientData,
    keccak256(toHex(attention)),
    domain.affiliate,
    domain.core,
    1778500300n,
    137n,
    23841n,
    false,
    false,
    false,
  ]);
  const subBet = word("bytes32,uint256,uint128,uint64,uint128,uint256", [
    protocol.SubBet,
    BigInt(raw.conditionId),
    29n,
    1760000000000n,
    10500000n,
    1778500000000123n,
  ]);
  const struct = word("bytes32,bytes32,bytes32", [protocol.ClientBetData, clientData, keccak256(subBet)]);
  const domainSeparator = word("bytes32,bytes32,bytes32,uint256,address", [
    keccak256(toHex("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)")),
    keccak256(toHex("Live Betting")),
    keccak256(toHex("1.0.0")),
    137n,
    domain.core,
  ]);
  const digest = keccak256(`0x1901${domainSeparator.slice(2)}${struct.slice(2)}` as Hex);
  assert.equal(hashTypedData(typed as any), digest);
  assert.equal(typed.primaryType, "ClientBetData");
  assert.deepEqual(typed.domain, {
    name: "Live Betting",
    version: "1.0.0",
    chainId: 137,
    verifyingContract: domain.core,
  });
});

test("bet minOdds: 5% of the winnings below the odds, floored to 2 decimals, also for one-decimal odds", () => {
  const cases: [string, string][] = [
    ["1.85", "1800000000000"],
    ["2", "1950000000000"],
    ["1.5", "1470000000000"], // the toolkit's calcMinOdds gives 1.00 here
    ["2.1", "2040000000000"],
    ["1.01", "1000000000000"],
    ["1", "1000000000000"],
    ["16.33", "15560000000000"],
  ];
  for (const [odds, expected] of cases) assert.equal(minOddsRaw(oddsToRaw(odds)).toString(), expected, odds);
});
