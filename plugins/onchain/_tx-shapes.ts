import * as v from "valibot";

const Json = v.pipe(
  v.unknown(),
  v.description("Decoded value: integers as decimal strings, addresses checksummed, tuples as arrays"),
);

export const Arg = v.object({ name: v.nullable(v.string()), type: v.string(), value: Json });

export const Method = v.object({
  selector: v.pipe(v.string(), v.description("First 4 bytes of the calldata")),
  signature: v.pipe(v.nullable(v.string()), v.description("Text signature, null when none is known")),
  args: v.pipe(v.nullable(v.array(Arg)), v.description("null when no known signature decodes the calldata exactly")),
});

export const Transfer = v.object({
  standard: v.picklist(["erc20", "erc721"]),
  token: v.string(),
  from: v.string(),
  to: v.string(),
  value: v.pipe(v.nullable(v.string()), v.description("ERC-20 atomic units")),
  tokenId: v.pipe(v.nullable(v.string()), v.description("ERC-721 token id")),
});

export const TxEvent = v.object({
  logIndex: v.number(),
  address: v.string(),
  topic0: v.nullable(v.string()),
  signature: v.pipe(v.nullable(v.string()), v.description("Event signature, null when unknown")),
  args: v.pipe(v.nullable(v.record(v.string(), Json)), v.description("Decoded for ERC-20 and ERC-721 events")),
});
