import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { freePort } from "./ports.ts";

export interface ServerChild {
  url: string;
  pid: number;
  /** Hands each later line of the child's stdout (a JSON log line, say) to `listener`. */
  onLine(listener: (line: string) => void): void;
  stop(): Promise<void>;
}

const serversDir = fileURLToPath(new URL("../servers/", import.meta.url));

/** Settings every server child gets: no request log, no rate limit. */
export const benchEnv = { LOG_LEVEL: "silent", RATE_LIMIT_PER_MINUTE: "0" };

/**
 * Starts `bench/servers/<name>.mjs` (plain Node) or `<name>.ts` (`--import tsx`) in its own process, on a
 * free loopback port, and waits for it to print its URL. `nodeArgs` lets a run add `--cpu-prof`.
 */
export async function startServer(
  name: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  readyTimeoutMs = 120_000,
): Promise<ServerChild> {
  const script = existsSync(`${serversDir}${name}.mjs`)
    ? [`${serversDir}${name}.mjs`]
    : ["--import", "tsx", `${serversDir}${name}.ts`];
  return startNode(name, script, env, nodeArgs, readyTimeoutMs);
}

/** Starts `node <nodeArgs> <script>` as startServer does, for a server script anywhere (another checkout's). */
export async function startNode(
  name: string,
  script: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  readyTimeoutMs = 120_000,
): Promise<ServerChild> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, ...script], {
    env: { ...process.env, ...benchEnv, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not print its URL within ${readyTimeoutMs} ms`)),
      readyTimeoutMs,
    );
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
    lines.on("line", (line) => {
      if (/^https?:\/\/\S+$/.test(line.trim())) {
        clearTimeout(timer);
        resolve(line.trim());
      }
    });
  }).catch(async (error) => {
    child.kill("SIGKILL");
    throw error;
  });
  return {
    url,
    pid: child.pid!,
    onLine: (listener) => void lines.on("line", listener),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killed = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(killed);
    },
  };
}
