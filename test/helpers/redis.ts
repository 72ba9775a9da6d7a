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

/** Why Redis Cluster tests cannot run here: they also need `redis-cli` (redis-tools; .ci/run installs it). */
export const redisClusterMissing =
  redisMissing ??
  (spawnSync("redis-cli", ["--version"]).error
    ? "redis-cli is not installed (apt-get install redis-tools); .ci/run installs it"
    : undefined);

export interface RedisServer {
  url: string;
  /** Stops the server (SIGTERM: with appendonly on, everything acknowledged is on disk). */
  stop(): Promise<void>;
  /** Stops and starts it again on the same port and data directory; `whileDown` runs in between. */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  /** Kills it with SIGKILL (what was not yet fsynced is lost), runs `whileDown`, and starts it again on its data. */
  crash(whileDown?: () => Promise<void>): Promise<void>;
}

/** A private redis-server on a free loopback port with its own temp directory, for one test file. */
export async function startRedis(
  options: { appendonly?: boolean; appendfsync?: "always" | "everysec" } = {},
): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), "redis-test-"));
  const port = await freePort();
  const persistence = options.appendonly
    ? ["--appendonly", "yes", "--appendfsync", options.appendfsync ?? "always"]
    : ["--appendonly", "no"];
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", ...persistence],
      { stdio: "ignore" },
    );
    await untilListening(port);
  };
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill(signal);
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
    async crash(whileDown) {
      await stop("SIGKILL");
      await whileDown?.();
      await start();
    },
  };
}

export interface RedisCluster {
  /** One node's URL: the client finds the others. */
  url: string;
  ports: number[];
  stop(): Promise<void>;
}

/**
 * A Redis Cluster of three masters (no replicas) on free loopback ports, each with its own temp directory and
 * cluster bus port, joined with `redis-cli --cluster create`; ready once every node reports `cluster_state:ok`.
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), "redis-cluster-test-"));
  const nodes: { port: number; child: ChildProcess }[] = [];
  for (let i = 0; i < 3; i++) {
    const [port, bus] = [await freePort(), await freePort()];
    const child = spawn(
      "redis-server",
      [
        ...["--port", String(port), "--cluster-port", String(bus), "--bind", "127.0.0.1"],
        ...["--cluster-enabled", "yes", "--cluster-config-file", `nodes-${port}.conf`],
        ...["--dir", dir, "--dbfilename", `dump-${port}.rdb`, "--save", "", "--appendonly", "no"],
      ],
      { stdio: "ignore" },
    );
    nodes.push({ port, child });
  }
  const stop = async () => {
    await Promise.all(
      nodes.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGTERM");
          }),
      ),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(nodes.map(({ port }) => untilListening(port)));
    const addresses = nodes.map(({ port }) => `127.0.0.1:${port}`);
    const created = spawnSync(
      "redis-cli",
      ["--cluster", "create", ...addresses, "--cluster-replicas", "0", "--cluster-yes"],
      {
        encoding: "utf8",
      },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    // `cluster create` returns once the slots are assigned; each node agrees a moment later, through the bus.
    for (const { port } of nodes) await untilClusterOk(port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${nodes[0].port}`, ports: nodes.map((n) => n.port), stop };
}

async function untilClusterOk(port: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  const state = () => spawnSync("redis-cli", ["-p", String(port), "cluster", "info"], { encoding: "utf8" }).stdout;
  while (!/cluster_state:ok/.test(state())) {
    if (Date.now() > deadline) throw new Error(`the cluster node on ${port} did not reach cluster_state:ok`);
    await new Promise((r) => setTimeout(r, 50));
  }
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
