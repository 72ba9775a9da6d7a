import * as v from "valibot";

export const Hex32 = (what: string) =>
  v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x and 64 hex digits"), v.description(what));

export const Address = (what: string) =>
  v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address"), v.description(what));

export const DuelId = v.pipe(
  v.number(),
  v.integer(),
  v.minValue(1),
  v.maxValue(Number.MAX_SAFE_INTEGER),
  v.description("The duel's id, from the Created event or /duel/feed"),
);

export const RakeBps = (what: string) =>
  v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000), v.description(what));

export const Stake = v.pipe(
  v.number(),
  v.minValue(0.000000001),
  v.maxValue(1_000_000),
  v.description("Stake in ETH; /duel/quote gives the escrow's limits"),
);

/** An ETH stake in wei (decimal string) and in ETH. */
export const WeiString = (what: string) => v.pipe(v.string(), v.regex(/^\d+$/), v.description(what));

export const TxSchema = v.object({
  to: Address("The escrow contract"),
  data: v.pipe(v.string(), v.regex(/^0x([0-9a-f]{2})*$/), v.description("Calldata")),
  value: v.pipe(
    v.string(),
    v.regex(/^0x[0-9a-f]+$/),
    v.description("Wei to send, hex quantity (eth_sendTransaction form)"),
  ),
});

export const TxTemplateSchema = v.object({
  to: Address("The escrow contract"),
  value: v.pipe(v.string(), v.regex(/^0x[0-9a-f]+$/)),
  dataPrefix: v.pipe(v.string(), v.regex(/^0x([0-9a-f]{2})*$/), v.description("Calldata up to your secret arguments")),
  append: v.pipe(
    v.array(v.string()),
    v.description("What you append to dataPrefix on your own machine, each a 32-byte word as 64 hex digits without 0x"),
  ),
});
