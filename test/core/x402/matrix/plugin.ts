import * as v from "valibot";
import { defineEndpoint, definePlugin, type Store } from "../../../../core/endpoint.ts";
import { ServiceError, upstreamFailed } from "../../../../core/runtime/errors.ts";

/**
 * The matrix's routes. Each counts its handler runs and the payers it saw by key, writes only after payment
 * (`matrix:write:<key>`, and for the wallet-keyed route the owner `matrix:owner:<key>`), can be held in its
 * handler until the test releases it, and can be told that its write will fail.
 */
export const seen = { runs: new Map<string, number>(), payers: new Map<string, string[]>() };

interface Hold {
  started: Promise<void>;
  /** Resolves when a second run of the key reaches its handler while the first is held. */
  twice: Promise<void>;
  onStart(): void;
  release(): void;
  released: Promise<void>;
}
const holds = new Map<string, Hold>();

/** The next handler run of `key` (and any other run while it is held) waits, once started, until `release()`. */
export function holdRun(key: string): Hold {
  let started!: () => void;
  let second!: () => void;
  let release!: () => void;
  let runs = 0;
  const hold: Hold = {
    started: new Promise<void>((r) => (started = r)),
    twice: new Promise<void>((r) => (second = r)),
    onStart: () => (++runs === 1 ? started() : second()),
    release: () => (holds.delete(key), release()),
    released: new Promise<void>((r) => (release = r)),
  };
  holds.set(key, hold);
  return hold;
}

export const runsOf = (key: string) => seen.runs.get(key) ?? 0;
export const writesOf = async (store: Store, key: string) => (await store.get<number>(`matrix:write:${key}`)) ?? 0;
export const ownerOf = (store: Store, key: string) => store.get<string>(`matrix:owner:${key}`);

const input = v.object({
  key: v.pipe(v.string(), v.maxLength(80)),
  effect: v.optional(v.picklist(["ok", "fails"]), "ok"),
});
const output = v.object({ key: v.string(), payer: v.optional(v.string()) });

async function ran(key: string, payer: string | undefined) {
  seen.runs.set(key, runsOf(key) + 1);
  seen.payers.set(key, [...(seen.payers.get(key) ?? []), payer ?? "none"]);
  const hold = holds.get(key);
  if (hold) {
    hold.onStart();
    await hold.released;
  }
}

/** The write and its undo: a call's writes must be withdrawable when another of its writes fails (a bundle's parts). */
function write(store: Store, key: string, effect: string, owner?: string) {
  const apply = async () => {
    if (effect === "fails") throw new Error("the store refused the write");
    if (owner) await store.set(`matrix:owner:${key}`, owner);
    await store.increment(`matrix:write:${key}`);
  };
  const undo = async () => {
    await store.delete(`matrix:write:${key}`);
    if (owner) await store.delete(`matrix:owner:${key}`);
  };
  return [apply, undo] as const;
}

const matrixWrite = defineEndpoint({
  name: "matrix-write",
  method: "GET",
  price: "$0.001",
  mcp: true,
  summary: "Writes one count under a key after payment",
  input,
  output,
  example: { input: { key: "k" }, output: { key: "k" } },
  async handler({ input, payer, store, afterPayment }) {
    await ran(input.key, payer);
    afterPayment(...write(store, input.key, input.effect));
    return payer ? { key: input.key, payer } : { key: input.key };
  },
});

/** Keyed by the paying wallet, as agent state is: a call without a wallet-signed payment is refused. */
const matrixMine = defineEndpoint({
  name: "matrix-mine",
  method: "GET",
  price: "$0.001",
  needsWallet: true,
  summary: "Writes under the paying wallet after payment",
  input,
  output,
  example: { input: { key: "k" }, output: { key: "k" } },
  async handler({ input, payer, store, afterPayment }) {
    await ran(input.key, payer);
    if (!payer) throw new ServiceError(403, "wallet_required", "This route is keyed by the paying wallet");
    afterPayment(...write(store, input.key, input.effect, payer.startsWith("0x") ? payer.toLowerCase() : payer));
    return { key: input.key, payer };
  },
});

/** Costs a whole batch's quote, so one call spends a wallet funded for one. */
const matrixDear = defineEndpoint({
  name: "matrix-dear",
  method: "GET",
  price: "$0.05",
  summary: "Writes one count under a key after payment, at $0.05",
  input,
  output,
  example: { input: { key: "k" }, output: { key: "k" } },
  async handler({ input, payer, store, afterPayment }) {
    await ran(input.key, payer);
    afterPayment(...write(store, input.key, input.effect));
    return { key: input.key };
  },
});

/** A bundle of two parts: a write of `<key>-a`, and a wallet-keyed write of `<key>-b` whose effect may fail. */
const matrixBundle = defineEndpoint({
  name: "matrix-bundle",
  method: "GET",
  price: "$0.002",
  composes: ["matrix-write", "matrix-mine"],
  summary: "Runs two writes as parts of one paid call",
  input,
  output: v.object({ parts: v.array(v.number()) }),
  example: { input: { key: "k" }, output: { parts: [200, 200] } },
  async handler({ input, call }) {
    const parts = await Promise.all([
      call("matrix-write", { key: `${input.key}-a` }),
      call("matrix-mine", { key: `${input.key}-b`, effect: input.effect }),
    ]);
    if (parts.every((p) => p.status >= 400)) throw upstreamFailed("matrix-bundle", "every part failed");
    return { parts: parts.map((p) => p.status) };
  },
});

/** Free for the wallet that signs in (sign-in-with-x): reads nothing, writes nothing, counts its runs and wallets. */
const matrixSignedIn = defineEndpoint({
  name: "matrix-signed-in",
  method: "GET",
  price: "$0",
  signIn: true,
  summary: "Answers the signed-in wallet, free",
  input,
  output,
  example: { input: { key: "k" }, output: { key: "k" } },
  async handler({ input, wallet }) {
    await ran(input.key, wallet);
    return { key: input.key, payer: wallet };
  },
});

export const matrixPlugin = definePlugin({
  family: "matrix",
  endpoints: [matrixWrite, matrixMine, matrixDear, matrixBundle, matrixSignedIn],
});

/** Resolves once the held handler started; fails if the call was answered first (it never reached its handler). */
export function startedBefore(hold: Hold, answer: Promise<{ status: number; body: unknown }>) {
  return Promise.race([
    hold.started,
    answer.then((a) => {
      throw new Error(`answered ${a.status} before its handler ran: ${JSON.stringify(a.body).slice(0, 300)}`);
    }),
  ]);
}
