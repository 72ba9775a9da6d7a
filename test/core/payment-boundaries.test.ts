import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The shape of the payment code (CONTRIBUTING, "Adding a way to pay"): a protocol-neutral core (core/payment), the
// x402 rail (core/x402) and one folder per scheme (core/x402/schemes/<scheme>/). Read from the sources' imports.
const root = fileURLToPath(new URL("../../", import.meta.url));
const schemes = "core/x402/schemes/";

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(d.name) ? [path] : [];
  });
}

// The same import reader as test/plugins/boundaries.test.ts: every relative specifier, static or dynamic, types too.
const specifier = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;
const files = sources("core");
const importsOf = new Map(
  files.map((file) => [
    file,
    [...readFileSync(join(root, file), "utf8").matchAll(specifier)].map((m) =>
      relative(root, resolve(root, dirname(file), m[1])),
    ),
  ]),
);
const isPayment = (file: string) => file.startsWith("core/payment/") || file.startsWith("core/x402/");

/** The import circles of the core (Tarjan's strongly connected components of more than one file). */
function circles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    for (const target of importsOf.get(file) ?? []) {
      if (!importsOf.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      circle.push(member);
    } while (member !== file);
    if (circle.length > 1) found.push(circle.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

test("payment boundaries: no import circle runs through the payment code (core/payment, core/x402), types included", () => {
  assert.ok(files.length > 80, `found ${files.length} core sources`);
  assert.deepEqual(
    circles().filter((circle) => circle.some(isPayment)),
    [],
  );
});

test("payment boundaries: the runtime, MCP and the payment core import no scheme folder (the rail's table does)", () => {
  const crossings = files
    .filter((file) => !file.startsWith("core/x402/"))
    .flatMap((file) =>
      importsOf
        .get(file)!
        .filter((t) => t.startsWith(schemes))
        .map((t) => `${file} -> ${t}`),
    );
  assert.deepEqual(crossings, []);
});

test("payment boundaries: the payment core (core/payment) imports nothing from a rail (core/x402)", () => {
  const imports: Record<string, string[]> = {};
  for (const file of files.filter((f) => f.startsWith("core/payment/"))) {
    const x402 = importsOf.get(file)!.filter((t) => t.startsWith("core/x402/"));
    if (x402.length) imports[file] = [...new Set(x402)].sort();
  }
  assert.deepEqual(imports, {});
});

test("payment boundaries: the runtime and MCP import nothing from a rail (core/x402): they read it through its offers' discovery and the carriers core/rails.ts registers", () => {
  const imports: Record<string, string[]> = {};
  for (const file of files.filter((f) => f.startsWith("core/runtime/") || f.startsWith("core/mcp/"))) {
    const x402 = importsOf.get(file)!.filter((t) => t.startsWith("core/x402/"));
    if (x402.length) imports[file] = [...new Set(x402)].sort();
  }
  assert.deepEqual(imports, {});
});

/** A branch on a scheme or a network family outside the scheme folders (plugin families excepted): none. */
const schemeBranch = /family [!=]== |familyOf\(|scheme [!=]== /;
const pluginFamily = /\.family [!=]== (family|"core")/;

test("payment boundaries: no branch on a scheme or network family outside core/x402/schemes/", () => {
  const counts: Record<string, number> = {};
  for (const file of files.filter((f) => !f.startsWith(schemes))) {
    const lines = readFileSync(join(root, file), "utf8").split("\n");
    const n = lines.filter((line) => schemeBranch.test(line) && !pluginFamily.test(line)).length;
    if (n) counts[file] = n;
  }
  assert.deepEqual(counts, {});
});
