import { join } from "node:path";
import { build } from "esbuild";

/**
 * bench/servers/ours-paid.ts as dist/bench/servers/ours-paid.mjs: the bench servers' own files bundled in, the
 * service's modules imported from the checkout's build (dist/core/...mjs), packages from node_modules.
 */
export async function buildPaidServer(dir: string) {
  await build({
    entryPoints: [join(dir, "bench/servers/ours-paid.ts")],
    outfile: join(dir, "dist/bench/servers/ours-paid.mjs"),
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
    plugins: [
      {
        name: "service-from-dist",
        setup(b) {
          b.onResolve({ filter: /^\.\.\/\.\.\/(core|plugins)\// }, (a) => ({
            path: a.path.replace(/\.ts$/, ".mjs"),
            external: true,
          }));
        },
      },
    ],
  });
}

/** The arguments that start `checkout`'s paid server: its build (buildPaidServer first), or its sources under tsx. */
export const paidServerScript = (checkout: string, { fromSource = false } = {}) =>
  fromSource
    ? ["--import", "tsx", join(checkout, "bench/servers/ours-paid.ts")]
    : [join(checkout, "dist/bench/servers/ours-paid.mjs")];
