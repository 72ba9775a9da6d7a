import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { freePort } from "../../bench/lib/ports.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Why Redis tests cannot run here, or undefined when `redis-server` is installed (.ci/run installs it). */
export const redisMissing = spawnSync("redis-server", ["--version"]).error
  ? "redis-server is not installed (apt-get install redis-server); .ci/run installs it"
  : undefined;

export interface RedisServer {
  url: string;
  /** Stops the server (SIGTERM: with appendonly on, everything acknowledged is on disk). */
  stop(): Promise<void>;
  /** Stops and starts it again on the same port and data directory; `whileDown` runs in between. */
  restart(whileDown?: () => Promise<void>): Promise<void>;
}

/** A private redis-server on a free loopback port with its own temp directory, for one test file. */
export async function startRedis(options: { appendonly?: boolean } = {}): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), "redis-test-"));
  const port = await freePort();
  const persistence = options.appendonly ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"];
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", ...persistence],
      { stdio: "ignore" },
    );
    await untilListening(port);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGTERM");
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
    async restart(whileDown) {
      await stop();
      await whileDown?.();
      await start();
    },
  };
}

async function untilListening(port: number, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`);
}
