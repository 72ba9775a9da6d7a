import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { importPlugins } from "../../core/runtime/load.ts";

// A folder of families written for each test: what the loader finds in it is what a contributor's files give.
const core = pathToFileURL(join(import.meta.dirname, "../../core/endpoint.ts")).href;
const valibot = import.meta.resolve("valibot");

const endpointFile = (name: string) => `import * as v from "${valibot}";
import { defineEndpoint } from "${core}";
export default defineEndpoint({
  name: "${name}",
  method: "GET",
  price: "$0.001",
  summary: "${name}",
  input: v.object({}),
  output: v.object({ ok: v.boolean() }),
  example: { input: {}, output: { ok: true } },
  handler: () => ({ ok: true }),
});
`;

function families(t: { after(fn: () => void): void }, files: Record<string, string>): URL {
  const dir = mkdtempSync(join(tmpdir(), "families-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [path, text] of Object.entries({ "package.json": '{ "type": "module" }', ...files })) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return pathToFileURL(`${dir}/`);
}

const index = (family: string, extra = "") =>
  `import { definePlugin } from "${core}";\nexport default definePlugin({ family: "${family}"${extra} });\n`;

test("scan: every file of a family but index.ts and _ helpers is an endpoint, loaded in sorted order", async (t) => {
  const dir = families(t, {
    "toys/index.ts": index("toys"),
    "toys/zeta.ts": endpointFile("zeta"),
    "toys/alpha.ts": endpointFile("alpha"),
    "toys/_helper.ts": "export const helper = 1;\n",
    "toys/types.d.ts": "export type T = string;\n",
    "_shared/tools.ts": "export const tool = 1;\n",
  });
  const [toys, builtin] = await importPlugins({ dir });
  assert.equal(toys.family, "toys");
  assert.deepEqual(
    toys.endpoints.map((e) => [e.name, e.family, e.path]),
    [
      ["alpha", "toys", "/v1/alpha"],
      ["zeta", "toys", "/v1/zeta"],
    ],
  );
  assert.equal(builtin.family, "core", "_shared is not a family");
});

test("scan: a file that exports something other than an endpoint fails boot with its name", async (t) => {
  const dir = families(t, {
    "toys/index.ts": index("toys"),
    "toys/alpha.ts": `${endpointFile("alpha")}export const rate = 0.15;\n`,
  });
  await assert.rejects(importPlugins({ dir }), /plugins\/toys\/alpha\.ts: export rate is not an endpoint/);
});

test("scan: an index.ts that still lists endpoints is refused (they are the folder's files)", async (t) => {
  const dir = families(t, {
    "toys/index.ts": `import alpha from "./alpha.ts";\n${index("toys", ", endpoints: [alpha]")}`,
    "toys/alpha.ts": endpointFile("alpha"),
  });
  await assert.rejects(importPlugins({ dir }), /plugins\/toys\/index\.ts lists endpoints/);
});
