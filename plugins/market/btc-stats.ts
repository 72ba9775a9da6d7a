import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { checkUpstream } from "../../core/runtime/errors.ts";
import { gatherVenues, SourcesReport } from "./_venues.ts";

const MEMPOOL = "mempool-space";

const Difficulty = v.object({
  progressPercent: v.number(),
  difficultyChange: v.number(),
  estimatedRetargetDate: v.number(),
  remainingBlocks: v.number(),
  nextRetargetHeight: v.number(),
});
const Fees = v.object({
  fastestFee: v.number(),
  halfHourFee: v.number(),
  hourFee: v.number(),
  economyFee: v.number(),
  minimumFee: v.number(),
});
const Mempool = v.object({ count: v.number(), vsize: v.number(), total_fee: v.number() });
const Hashrate = v.object({ currentHashrate: v.number(), currentDifficulty: v.number() });
const Prices = v.object({ USD: v.number() });
const Height = v.pipe(v.string(), v.trim(), v.regex(/^[1-9]\d{0,8}$/, "a block height"), v.transform(Number));
type Difficulty = v.InferOutput<typeof Difficulty>;
type Fees = v.InferOutput<typeof Fees>;
type Mempool = v.InferOutput<typeof Mempool>;
type Hashrate = v.InferOutput<typeof Hashrate>;

export default defineEndpoint({
  name: "btc-stats",
  method: "GET",
  price: "$0.005",
  summary: "Bitcoin network snapshot: price, block height, hashrate, difficulty retarget, mempool and recommended fees",
  description:
    "From mempool.space's public API, read in parallel; a part that fails is null and named under sources.missing (the call fails only when every part does).",
  input: v.object({}),
  output: v.object({
    priceUsd: v.nullable(v.number()),
    blockHeight: v.nullable(v.number()),
    hashrate: v.nullable(
      v.object({ current: v.pipe(v.number(), v.description("Hashes per second")), difficulty: v.number() }),
    ),
    retarget: v.nullable(
      v.object({
        progressPercent: v.number(),
        estimatedChangePercent: v.number(),
        remainingBlocks: v.number(),
        nextHeight: v.number(),
        estimatedDate: v.string(),
      }),
    ),
    mempool: v.nullable(v.object({ count: v.number(), vsize: v.number(), totalFeeSat: v.number() })),
    feesSatPerVb: v.nullable(
      v.object({
        fastest: v.number(),
        halfHour: v.number(),
        hour: v.number(),
        economy: v.number(),
        minimum: v.number(),
      }),
    ),
    sources: SourcesReport,
  }),
  example: {
    input: {},
    output: {
      priceUsd: 99430,
      blockHeight: 879512,
      hashrate: { current: 8.123e20, difficulty: 109782075598905.9 },
      retarget: {
        progressPercent: 41.2,
        estimatedChangePercent: 1.84,
        remainingBlocks: 1185,
        nextHeight: 880697,
        estimatedDate: "2025-01-23T18:12:00.000Z",
      },
      mempool: { count: 51234, vsize: 31234567, totalFeeSat: 12345678 },
      feesSatPerVb: { fastest: 5, halfHour: 4, hour: 3, economy: 2, minimum: 1 },
      sources: {
        answered: [
          "/blocks/tip/height",
          "/v1/difficulty-adjustment",
          "/v1/fees/recommended",
          "/mempool",
          "/v1/prices",
          "/v1/mining/hashrate/3d",
        ],
        missing: [],
      },
    },
  },
  cacheTtl: 60,
  upstreams: [MEMPOOL],
  async handler({ upstream, signal }) {
    const api = upstream(MEMPOOL);
    const { values, sources } = await gatherVenues<unknown>(
      {
        "/blocks/tip/height": async () => checkUpstream(MEMPOOL, Height, await api.text("/blocks/tip/height")),
        "/v1/difficulty-adjustment": () => api.json("/v1/difficulty-adjustment", Difficulty),
        "/v1/fees/recommended": () => api.json("/v1/fees/recommended", Fees),
        "/mempool": () => api.json("/mempool", Mempool),
        "/v1/prices": () => api.json("/v1/prices", Prices),
        "/v1/mining/hashrate/3d": () => api.json("/v1/mining/hashrate/3d", Hashrate),
      },
      signal,
    );
    const part = <T>(name: string) => values.find((x) => x.venue === name)?.value as T | undefined;
    const height = part<number>("/blocks/tip/height");
    const d = part<Difficulty>("/v1/difficulty-adjustment");
    const f = part<Fees>("/v1/fees/recommended");
    const m = part<Mempool>("/mempool");
    const h = part<Hashrate>("/v1/mining/hashrate/3d");
    return {
      priceUsd: part<{ USD: number }>("/v1/prices")?.USD ?? null,
      blockHeight: height !== undefined && Number.isFinite(height) ? height : null,
      hashrate: h ? { current: h.currentHashrate, difficulty: h.currentDifficulty } : null,
      retarget: d
        ? {
            progressPercent: d.progressPercent,
            estimatedChangePercent: d.difficultyChange,
            remainingBlocks: d.remainingBlocks,
            nextHeight: d.nextRetargetHeight,
            estimatedDate: new Date(d.estimatedRetargetDate).toISOString(),
          }
        : null,
      mempool: m ? { count: m.count, vsize: m.vsize, totalFeeSat: m.total_fee } : null,
      feesSatPerVb: f
        ? {
            fastest: f.fastestFee,
            halfHour: f.halfHourFee,
            hour: f.hourFee,
            economy: f.economyFee,
            minimum: f.minimumFee,
          }
        : null,
      sources,
    };
  },
});
