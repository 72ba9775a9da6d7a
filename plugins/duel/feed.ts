import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { ethOf } from "./_calldata.ts";
import { DUEL_CONFIG, DUEL_UPSTREAMS, readDuelCount, readDuels } from "./_chain.ts";
import { Address, WeiString } from "./_schemas.ts";
import { isExpired } from "./_view.ts";
import { duelSettings } from "./_settings.ts";

/** How many of the newest duels the feed reads: one batched RPC request. */
const SCAN = 500;

export default defineEndpoint({
  name: "duel/feed",
  method: "GET",
  path: "/duel/feed",
  price: "$0",
  summary: "Open duels waiting for an opponent, newest first",
  description: `Reads the ${SCAN} newest duels from the escrow and lists those still open before their join deadline (by the chain's clock).`,
  requires: DUEL_CONFIG,
  upstreams: DUEL_UPSTREAMS,
  settings: duelSettings,
  input: v.object({
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100), v.description("Most duels to list")),
      20,
    ),
  }),
  output: v.object({
    duels: v.array(
      v.object({
        duelId: v.number(),
        playerA: Address("The creator"),
        stake: WeiString("Stake to match, in wei"),
        stakeEth: v.string(),
        rakeBps: v.number(),
        deadline: v.pipe(v.string(), v.description("Join before this, ISO 8601")),
        secondsLeft: v.number(),
      }),
    ),
    latestDuelId: v.pipe(v.number(), v.description("The newest duel's id (0 when none exists)")),
    scanned: v.number(),
  }),
  example: {
    input: { limit: 20 },
    output: {
      duels: [
        {
          duelId: 1,
          playerA: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
          stake: "10000000000000000",
          stakeEth: "0.01",
          rakeBps: 300,
          deadline: "2026-11-22T11:21:08.000Z",
          secondsLeft: 86400,
        },
      ],
      latestDuelId: 1,
      scanned: 1,
    },
  },
  async handler(ctx) {
    const { input } = ctx;
    const latest = await readDuelCount(ctx);
    const ids = Array.from({ length: Math.min(SCAN, latest) }, (_, i) => latest - i);
    const { duels, chainNow } = ids.length ? await readDuels(ctx, ids) : { duels: [], chainNow: 0 };
    const open = duels.filter((d) => d.phase === "open" && !isExpired(d, chainNow)).slice(0, input.limit);
    return {
      duels: open.map((d) => ({
        duelId: d.id,
        playerA: d.players[0],
        stake: d.stake.toString(),
        stakeEth: ethOf(d.stake),
        rakeBps: d.rakeBps,
        deadline: new Date(d.deadline * 1000).toISOString(),
        secondsLeft: d.deadline - chainNow,
      })),
      latestDuelId: latest,
      scanned: ids.length,
    };
  },
});
