import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildRegistry } from "./documents.ts";
import { loadPlugins } from "./load.ts";
import { upstreams } from "./upstreams.ts";

export const registryFile = new URL("../../registry.json", import.meta.url);

/** registry.json describes every endpoint in the repository, whatever an operator enables. */
export async function renderRegistry(): Promise<string> {
  const { endpoints } = await loadPlugins({ knownUpstreams: Object.keys(upstreams) });
  return JSON.stringify({ endpoints: buildRegistry(endpoints) }, null, 2) + "\n";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fresh = await renderRegistry();
  if (process.argv.includes("--check")) {
    const current = await readFile(registryFile, "utf8").catch(() => "");
    if (current !== fresh) {
      console.error("registry.json is stale: run npm run registry");
      process.exit(1);
    }
    console.log("registry.json is current");
  } else {
    await writeFile(registryFile, fresh);
    console.log(`wrote registry.json (${JSON.parse(fresh).endpoints.length} endpoints)`);
  }
}
