import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { ethOf } from "./_calldata.ts";
import { DUEL_CONFIG, DUEL_UPSTREAMS, readTerms } from "./_chain.ts";
import { Address, WeiString } from "./_schemas.ts";
import { duelSettings } from "./_settings.ts";

export default defineEndpoint({
  name: "duel/quote",
  method: "GET",
  path: "/duel/quote",
  price: "$0",
  summary: "Duel economics: stake limits, rake and its on-chain cap, timeout tip, phase deadlines",
  description: "Read from the escrow contract on the configured chain.",
  requires: DUEL_CONFIG,
  upstreams: DUEL_UPSTREAMS,
  settings: duelSettings,
  input: v.object({}),
  output: v.object({
    chainId: v.number(),
    contract: Address("The escrow contract"),
    stake: v.object({
      min: WeiString("Smallest stake, wei"),
      max: WeiString("Largest stake, wei"),
      minEth: v.string(),
      maxEth: v.string(),
    }),
    rakeBps: v.pipe(v.number(), v.description("Taken from the pot of a decided duel (new duels)")),
    rakeCapBps: v.pipe(v.number(), v.description("The contract refuses any rake above this")),
    tipBps: v.pipe(
      v.number(),
      v.description(
        "Share of the stake paid to whoever times out a duel nobody joined, unless it is the creator; no other timeout pays a tip",
      ),
    ),
    tieRefundBps: v.pipe(v.number(), v.description("A tie refunds each stake in full, without rake")),
    maxHits: v.number(),
    windows: v.object({
      joinSeconds: v.pipe(v.number(), v.description("Time for an opponent to join")),
      phaseSeconds: v.pipe(
        v.number(),
        v.description("Time for each later phase: reveal secrets, commit moves, reveal moves"),
      ),
    }),
    rules: v.array(v.string()),
  }),
  example: {
    input: {},
    output: {
      chainId: 84532,
      contract: "0x8464135c8F25Da09e49BC8782676a84730C318bC",
      stake: {
        min: "100000000000000",
        max: "10000000000000000000",
        minEth: "0.0001",
        maxEth: "10",
      },
      rakeBps: 300,
      rakeCapBps: 1000,
      tipBps: 100,
      tieRefundBps: 10000,
      maxHits: 9,
      windows: {
        joinSeconds: 86400,
        phaseSeconds: 600,
      },
      rules: [
        "Both players stake the same ETH; each draws from its own side of a shoe derived from both secrets.",
        "A hand is the first 2 + hits cards; the higher total not over 21 wins, a two-card 21 beats any other 21.",
        "The winner takes the pot minus 3%; a tie (equal hands, or both bust) refunds both stakes in full.",
        "The creator sets the most rake the duel accepts and may cancel it for the whole stake until someone joins.",
        "After a phase's deadline anyone may call timeout: the player who acted in that phase wins the pot minus the rake, and if neither did both stakes come back in full; no tip is paid, so stalling earns nothing. A duel nobody joined returns the stake, minus 1% for a caller other than the creator.",
      ],
    },
  },
  async handler(ctx) {
    const t = await readTerms(ctx);
    return {
      chainId: t.chainId,
      contract: t.escrow,
      stake: {
        min: t.minStake.toString(),
        max: t.maxStake.toString(),
        minEth: ethOf(t.minStake),
        maxEth: ethOf(t.maxStake),
      },
      rakeBps: t.rakeBps,
      rakeCapBps: t.rakeCapBps,
      tipBps: t.tipBps,
      tieRefundBps: 10_000,
      maxHits: t.maxHits,
      windows: { joinSeconds: t.joinWindow, phaseSeconds: t.actWindow },
      rules: [
        "Both players stake the same ETH; each draws from its own side of a shoe derived from both secrets.",
        "A hand is the first 2 + hits cards; the higher total not over 21 wins, a two-card 21 beats any other 21.",
        `The winner takes the pot minus ${t.rakeBps / 100}%; a tie (equal hands, or both bust) refunds both stakes in full.`,
        "The creator sets the most rake the duel accepts and may cancel it for the whole stake until someone joins.",
        `After a phase's deadline anyone may call timeout: the player who acted in that phase wins the pot minus the rake, and if neither did both stakes come back in full; no tip is paid, so stalling earns nothing. A duel nobody joined returns the stake, minus ${t.tipBps / 100}% for a caller other than the creator.`,
      ],
    };
  },
});
