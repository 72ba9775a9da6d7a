import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { readToolEnv } from "../../runtime/config.ts";

export type AnvilOptions = {
  /** Fixed port; without it a free one is picked (anvil itself does not accept port 0). */
  port?: number;
  chainId?: number;
  /** Seconds between blocks; without it anvil mines each transaction at once. */
  blockTime?: number;
  /** With blockTime: each transaction is still mined at once, and empty blocks come on the interval too. */
  mixedMining?: boolean;
  mnemonic?: string;
  /** How long to wait for the RPC to answer before giving up. */
  readyTimeoutMs?: number;
};

export type Anvil = {
  rpcUrl: string;
  chainId: number;
  process: ChildProcess;
  stop(): Promise<void>;
};

const runningAnvils = new Set<ChildProcess>();
const PORT_ATTEMPTS = 5;

export function findAnvilBinary(): string {
  const configured = readToolEnv().anvilBin;
  if (configured) return configured;
  try {
    // The npm package's binary (Linux x64), found the way Node finds packages, from the sources or from dist/.
    const bundledAnvil = join(
      dirname(createRequire(import.meta.url).resolve("@foundry-rs/anvil-linux-amd64/package.json")),
      "bin",
      "anvil",
    );
    accessSync(bundledAnvil, constants.X_OK);
    return bundledAnvil;
  } catch {
    return "anvil";
  }
}

export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const chainId = options.chainId ?? 84532;
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await findFreePort());
    try {
      return await launch(port, chainId, options);
    } catch (error) {
      // A picked port can be taken between probing and anvil binding it; try another.
      const portTaken = error instanceof Error && /address already in use/i.test(error.message);
      if (!portTaken || options.port !== undefined || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

async function launch(port: number, chainId: number, options: AnvilOptions): Promise<Anvil> {
  // anvil writes --config-out only after binding its port, so the file proves that this process (and not
  // some other server already on the port) is the one answering.
  const boundMarker = join(tmpdir(), `anvil-${process.pid}-${port}-${Date.now()}.json`);
  const args = ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(chainId), "--quiet"];
  args.push("--config-out", boundMarker);
  if (options.blockTime !== undefined) args.push("--block-time", String(options.blockTime));
  if (options.mixedMining) args.push("--mixed-mining");
  if (options.mnemonic !== undefined) args.push("--mnemonic", options.mnemonic);

  const binary = findAnvilBinary();
  const child = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"] });
  trackUntilExit(child);
  let spawnError: Error | undefined;
  // A permanent listener: an unhandled 'error' on a child process would crash the whole service.
  child.on("error", (error) => (spawnError ??= error));
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const killTimer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(killTimer);
    }
  };

  const rpcUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(rpcUrl, child, () => spawnError, boundMarker, options.readyTimeoutMs ?? 15_000);
  } catch (error) {
    await stop();
    let reason = error instanceof Error ? error.message : String(error);
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      reason += ` (no anvil at "${binary}": set ANVIL_BIN, install @foundry-rs/anvil-linux-amd64, or put anvil on PATH)`;
    }
    throw new Error(`anvil did not start on ${rpcUrl}: ${reason}\nanvil stderr: ${stderr.trim() || "(empty)"}`);
  } finally {
    rmSync(boundMarker, { force: true });
  }
  // The devnet must not keep the process alive on its own; the exit hook below ends it.
  child.unref();
  (child.stderr as { unref?: () => void } | null)?.unref?.();
  return { rpcUrl, chainId, process: child, stop };
}

async function waitUntilReady(
  rpcUrl: string,
  child: ChildProcess,
  spawnError: () => Error | undefined,
  boundMarker: string,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const error = spawnError();
    if (error) throw error;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`anvil exited early (code ${child.exitCode}, signal ${child.signalCode})`);
    }
    if (existsSync(boundMarker) && (await answersChainId(rpcUrl))) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`eth_chainId did not answer within ${timeoutMs} ms`);
}

async function answersChainId(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await response.json()) as { result?: unknown };
    return typeof body.result === "string";
  } catch {
    return false;
  }
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

function trackUntilExit(child: ChildProcess): void {
  if (!exitHooksInstalled) installExitHooks();
  runningAnvils.add(child);
  child.once("exit", () => runningAnvils.delete(child));
}

let exitHooksInstalled = false;

// A crashed test or a Ctrl-C must not leave anvil running: kill every child on the way out.
function installExitHooks(): void {
  exitHooksInstalled = true;
  const killAll = () => {
    for (const child of runningAnvils) child.kill("SIGKILL");
  };
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAll();
      // Keep the default "terminate on signal" unless the application handles the signal itself.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}
