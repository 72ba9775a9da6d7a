import { readdir, access } from "node:fs/promises";
import * as v from "valibot";
import type { AssetDef, Endpoint, JobDef, PageDef, Plugin } from "../endpoint.ts";
import { schemasOf } from "./schema.ts";
import { corePlugin } from "./builtin/index.ts";
import type { Runtime } from "./container.ts";

const noRuntime = (): Runtime => {
  throw new Error("the core family was loaded without a runtime");
};

const pluginsDir = new URL("../../plugins/", import.meta.url);
/** A family's entry module: index.ts from the sources (tsx), index.mjs from the build (dist/). */
const pluginEntry = import.meta.url.endsWith(".mjs") ? "index.mjs" : "index.ts";

export interface Loaded {
  endpoints: Endpoint[];
  pages: PageDef[];
  assets: AssetDef[];
  jobs: JobDef[];
  families: string[];
  /** Endpoints left unmounted, with the reason (a missing upstream key). */
  disabled: { name: string; reason: string }[];
}

/** Every family folder with an entry module, sorted so the load order is the same on every machine. */
export async function listFamilies(): Promise<string[]> {
  const dirs = await readdir(pluginsDir, { withFileTypes: true }).catch(() => []);
  const families: string[] = [];
  for (const d of dirs.filter((d) => d.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    if (await access(new URL(`${d.name}/${pluginEntry}`, pluginsDir)).then(() => true, () => false)) families.push(d.name);
  }
  return families;
}

export interface LoadOptions {
  /** PLUGINS: the families to load; all when unset. */
  only?: string[];
  /** Plugins given as values instead of folders under plugins/. */
  given?: Plugin[];
  isConfigured?: (upstream: string) => boolean;
  /** Whether an environment variable an endpoint `requires` is set. */
  isSet?: (variable: string) => boolean;
  knownUpstreams?: string[];
  /** The runtime the built-in `core` family reports on (the registry loads without one). */
  runtime?: () => Runtime;
  /** The environment the families' settings are read from; process.env by default. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Imports the selected families (all when `only` is unset) and checks them; boot fails with every
 * problem listed at once. `isConfigured` tells whether an upstream has the key it needs.
 */
export async function loadPlugins(options: LoadOptions = {}): Promise<Loaded> {
  const available = options.given ? options.given.map((p) => p.family) : await listFamilies();
  const unknown = (options.only ?? []).filter((f) => !available.includes(f));
  if (unknown.length) {
    throw new Error(`Unknown plugin famil${unknown.length > 1 ? "ies" : "y"} in PLUGINS: ${unknown.join(", ")}. Valid families: ${available.join(", ")}`);
  }
  const families = options.only ? available.filter((f) => options.only!.includes(f)) : available;
  const plugins: Plugin[] = [];
  for (const family of families) {
    plugins.push(options.given?.find((p) => p.family === family) ?? (await import(new URL(`${family}/${pluginEntry}`, pluginsDir).href)).default);
  }

  plugins.push(corePlugin(options.runtime ?? noRuntime));
  const problems = [...checkPlugins(plugins, [...families, "core"], options.knownUpstreams), ...checkSettings(plugins, options.env ?? process.env)];
  if (problems.length) throw new Error(`Plugins failed their checks:\n  ${problems.join("\n  ")}`);

  const endpoints: Endpoint[] = [];
  const disabled: Loaded["disabled"] = [];
  for (const e of plugins.flatMap((p) => p.endpoints)) {
    const missing = (e.upstreams ?? []).filter((u) => options.isConfigured && !options.isConfigured(u));
    const unset = (e.requires ?? []).filter((variable) => options.isSet && !options.isSet(variable));
    if (missing.length) disabled.push({ name: e.name, reason: `missing key for upstream ${missing.join(", ")}` });
    else if (unset.length) disabled.push({ name: e.name, reason: `missing configuration ${unset.join(", ")}` });
    else endpoints.push(e);
  }
  return {
    endpoints,
    families: [...families, "core"],
    disabled,
    pages: plugins.flatMap((p) => p.pages ?? []),
    assets: plugins.flatMap((p) => p.assets ?? []),
    jobs: plugins.flatMap((p) => p.jobs ?? []),
  };
}

/** Every family's settings read once, so a bad value stops the boot instead of failing calls later. */
function checkSettings(plugins: Plugin[], env: NodeJS.ProcessEnv): string[] {
  return plugins.flatMap((plugin) =>
    plugin.settings.flatMap((read) => {
      try {
        read(env);
        return [];
      } catch (error) {
        return [`${plugin.family}: ${(error as Error).message}`];
      }
    }),
  );
}

export function checkPlugins(plugins: Plugin[], folders: string[], knownUpstreams?: string[]): string[] {
  const problems: string[] = [];
  const names = new Map<string, string>();
  const routes = new Map<string, string>();
  const jobs = new Map<string, string>();
  plugins.forEach((plugin, i) => {
    if (!plugin?.endpoints) return void problems.push(`plugins/${folders[i]}/index.ts: default export is not definePlugin(...)`);
    if (plugin.family !== folders[i]) problems.push(`plugins/${folders[i]}: family is "${plugin.family}", expected the folder name`);
    for (const e of plugin.endpoints) {
      const at = `${e.name} (${plugin.family})`;
      if (names.has(e.name)) problems.push(`${at}: duplicate name, also in ${names.get(e.name)}`);
      names.set(e.name, plugin.family);
      const route = `${e.method} ${e.path}`;
      if (routes.has(route)) problems.push(`${at}: duplicate route ${route}, also ${routes.get(route)}`);
      routes.set(route, e.name);
      if (!/^\$\d+(\.\d+)?$/.test(e.price)) problems.push(`${at}: price "${e.price}" is not a money string like $0.005`);
      for (const u of e.upstreams ?? []) if (knownUpstreams && !knownUpstreams.includes(u)) problems.push(`${at}: unknown upstream ${u}`);
      try {
        schemasOf(e);
      } catch (error) {
        problems.push(`${at}: schema does not convert to JSON Schema: ${(error as Error).message}`);
      }
      const input = v.safeParse(e.input, e.example?.input);
      if (!input.success) problems.push(`${at}: example input fails the input schema: ${summarize(input.issues)}`);
      const output = v.safeParse(e.output, e.example?.output);
      if (!output.success) problems.push(`${at}: example output fails the output schema: ${summarize(output.issues)}`);
    }
    for (const page of [...(plugin.pages ?? []), ...(plugin.assets ?? [])]) {
      const route = `GET ${page.path}`;
      if (routes.has(route)) problems.push(`${page.path} (${plugin.family}): duplicate route, also ${routes.get(route)}`);
      routes.set(route, `a ${plugin.family} page`);
    }
    for (const job of plugin.jobs ?? []) {
      if (jobs.has(job.name)) problems.push(`job ${job.name} (${plugin.family}): duplicate name, also in ${jobs.get(job.name)}`);
      jobs.set(job.name, plugin.family);
      for (const u of job.upstreams ?? []) if (knownUpstreams && !knownUpstreams.includes(u)) problems.push(`job ${job.name}: unknown upstream ${u}`);
    }
  });
  return problems;
}

const summarize = (issues: readonly v.BaseIssue<unknown>[]) =>
  issues.slice(0, 3).map((i) => `${v.getDotPath(i) ?? "(root)"} ${i.message}`).join("; ");
