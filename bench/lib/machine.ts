import os from "node:os";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const versionOf = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version;

/** What the numbers were measured on. */
export function describeMachine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    cpuCount: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    autocannon: versionOf("autocannon"),
  };
}
