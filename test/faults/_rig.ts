import { execFile, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, renameSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pino from "pino";
import type { LocalAccount } from "viem/accounts";
import { createRedisStore, type RedisStore } from "../../core/runtime/redis-store.ts";
import { freePort } from "../../bench/lib/ports.ts";
import { localRailEnv, startDevnet, type Devnet } from "../helpers/paid.ts";
import { startRedis, type RedisServer } from "../helpers/redis.ts";
import { transfersTo, blockNow } from "../helpers/rail.ts";
import { challengeOf, newPaymentId, v2Header } from "../helpers/sign.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** Every instance answers for the same public URL: a payment signed at one can be retried at another. */
export const baseUrl = "http://127.0.0.1:4021";

/** The steps of a paid call where `X402_CRASH_AT` kills the process (core/payment/crash-points.ts). */
export type Step = "claimed" | "handled" | "written-ahead" | "settled" | "effects-applied";

export interface Rig {
  devnet: Devnet;
  redis: RedisServer;
  store: RedisStore;
  dir: string;
  /** The file each instance appends one line to per step reached (`<pid> <step> <payer>`). */
  trace: string;
  /** The service built as plain JavaScript (npm start's build): an instance boots in about a second, not ten under tsx. */
  main: string;
  stop(): Promise<void>;
}

/** A devnet, a private redis-server (append-only, fsync every second as deployed) and a data directory for one file. */
export async function startRig(): Promise<Rig> {
  const [devnet, redis, dir, main] = await Promise.all([
    startDevnet(),
    startRedis({ appendonly: true, appendfsync: "everysec" }),
    mkdtemp(join(tmpdir(), "faults-")),
    builtService(),
  ]);
  const store = await createRedisStore(redis.url, pino({ level: "silent" }));
  return {
    devnet,
    redis,
    store,
    dir,
    trace: join(dir, "trace.log"),
    main,
    async stop() {
      await store.close();
      await Promise.all([redis.stop(), devnet.stop()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The service built once per source tree (npm start's build), shared by the files of the harness running side by
 * side: each builds into a directory of its own and renames it into place; a file that finds it built uses it.
 */
async function builtService(): Promise<string> {
  const stamp = createHash("sha256");
  for (const d of ["core", "plugins"])
    for (const f of (readdirSync(join(root, d), { recursive: true }) as string[]).map(String).sort()) {
      const st = statSync(join(root, d, f));
      stamp.update(`${d}/${f} ${st.size} ${st.mtimeMs}\n`);
    }
  const dir = join("node_modules/.cache", `faults-build-${stamp.digest("hex").slice(0, 16)}`);
  const main = join(root, dir, "core/main.mjs");
  if (existsSync(main)) return main;
  const own = `${dir}-${process.pid}`;
  await promisify(execFile)(process.execPath, ["scripts/build.mjs", own], { cwd: root });
  try {
    renameSync(join(root, own), join(root, dir));
  } catch {
    // Another file built it first.
    await rm(join(root, own), { recursive: true, force: true });
  }
  return main;
}

export interface Instance {
  port: number;
  url: string;
  child: ChildProcess;
  /** How the process ended: `SIGKILL` when it reached its crash step. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** Its log lines at error level. */
  errors: string[];
  stop(): Promise<void>;
}

/**
 * The real service (core/main.ts) as its own process on `port`, settling with the devnet's relayer, sharing the
 * rig's Redis; `crashAt` arms its crash step. Unfinished payments are resolved after 2 s, checked every second.
 */
export async function startInstance(
  rig: Rig,
  port: number,
  crashAt?: string,
  extraEnv: Record<string, string> = {},
): Promise<Instance> {
  const { devnet } = rig;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: baseUrl,
    LOG_LEVEL: "warn",
    PLUGINS: "converters,state",
    JOBS: "off",
    RATE_LIMIT_PER_MINUTE: "0",
    STORE_URL: rig.redis.url,
    ...localRailEnv(devnet),
    X402_UPTO: "off",
    // Short enough that an authorization whose settlement was never sent expires within the test.
    X402_MAX_TIMEOUT_SECONDS: "15",
    HANDLER_TIMEOUT_MS: "2000",
    X402_RESOLVE_AFTER_SECONDS: "2",
    X402_RECONCILE_SECONDS: "1",
    DATA_DIR: rig.dir,
    X402_CRASH_TRACE: rig.trace,
    ...(crashAt ? { X402_CRASH_AT: crashAt } : {}),
    ...extraEnv,
  };
  const child = spawn(process.execPath, [rig.main], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  const errors: string[] = [];
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const listening = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.includes('"msg":"listening"') || line.includes("Listening")) resolve();
      try {
        if (JSON.parse(line).level >= 50) errors.push(line);
      } catch {}
    });
    exited.then((how) => reject(new Error(`the instance exited (${how}) before listening: ${stderr.slice(-2000)}`)));
  });
  // Its own "listening" line is at info level: wait for the port instead (and stop waiting if it exits).
  let gone = false;
  void exited.then(() => (gone = true));
  await Promise.race([untilAnswering(port, () => gone), listening]);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    exited,
    errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

async function untilAnswering(port: number, gone: () => boolean) {
  while (!gone()) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const freshPort = freePort;

/** A paid call signed by `payer` with a payment identifier: the header is kept, so the payer can retry with it. */
export async function signedCall(instance: Instance, payer: LocalAccount, path: string) {
  const required = await challengeOf(fetch, instance.url + path);
  const { header, payload } = await v2Header(payer, required, {}, undefined, newPaymentId());
  return { path, header, nonce: payload.authorization.nonce };
}

export type Signed = Awaited<ReturnType<typeof signedCall>>;

/** Sends the signed call; a connection the process dropped (it was killed) is `undefined`. */
export async function send(instance: Instance, call: Signed) {
  try {
    const res = await fetch(instance.url + call.path, { headers: { "payment-signature": call.header } });
    return { status: res.status, body: (await res.json()) as any, headers: res.headers };
  } catch {
    return undefined;
  }
}

/**
 * The payer retries with the same payment (and identifier) until the call is finished one way or another: the
 * answer replayed, a credit code, or a refusal that says nothing was charged. In progress means wait: the
 * answer's Retry-After says how long.
 */
export async function retryUntilFinished(instance: Instance, call: Signed, giveUpMs = 120_000) {
  const giveUpAt = Date.now() + giveUpMs;
  for (;;) {
    const res = await send(instance, call);
    // Still in progress long after every deadline (2 s, a 1 s tick, a 15 s authorization): it never finishes.
    if (Date.now() > giveUpAt) return res;
    const code = res?.body?.error?.code;
    const waiting =
      res === undefined || code === "settlement_in_progress" || /in progress/.test(res.body?.error?.message ?? "");
    if (!waiting) return res;
    const seconds = Number(res?.headers.get("retry-after") ?? 1);
    await new Promise((r) => setTimeout(r, Math.min(seconds, 2) * 1000));
  }
}

/** Trace lines of one step for one payer: how many times a handler ran for its payment, say. */
export async function stepsReached(rig: Rig, step: string, payer: string) {
  const text = await readFile(rig.trace, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line.split(" ")[1] === step && line.split(" ")[2] === payer).length;
}

/** What moved on-chain from `payer` to payTo since `fromBlock`. */
export const charged = (rig: Rig, payer: LocalAccount, fromBlock: bigint) =>
  transfersTo(rig.devnet, rig.devnet.accounts.payTo.address, fromBlock, payer.address);

export { blockNow };

/** The credits funded for this payer's payments: the marks the ledger claims before funding one (in-flight.ts). */
export async function creditsFunded(rig: Rig, payer: { address: string }, network: string = rig.devnet.network) {
  const marks = await rig.store.keys(`x402:funded:${network}:`);
  return marks.filter((k) => k.toLowerCase().includes(payer.address.toLowerCase())).length;
}
