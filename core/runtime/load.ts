import { readdir, access } from "node:fs/promises";
import * as v from "valibot";
import {
  inFamily,
  isEndpointDef,
  type AssetDef,
  type DevnetContract,
  type DevnetInfo,
  type Endpoint,
  type EndpointDef,
  type JobDef,
  type PageDef,
  type Plugin,
  type UpstreamTable,
} from "../endpoint.ts";
import { schemasOf } from "./schema.ts";
import { upstreamSettingProblems } from "./config.ts";
import { corePlugin } from "./builtin/index.ts";

const pluginsFolder = new URL("../../plugins/", import.meta.url);
/** Modules end in .ts in the sources (tsx) and .mjs in the build (dist/), which compiles each file to its own module. */
const moduleExt = import.meta.url.endsWith(".mjs") ? ".mjs" : ".ts";
/** A family's metadata module. */
const pluginEntry = `index${moduleExt}`;
/** The module of a family's folder in dist/ that scripts/build.mjs bundles the family into. */
const familyBundle = "_family.mjs";

/** An endpoint module: any file of a family's folder but index, a `_` helper, or a declaration file. */
export const isEndpointFile = (name: string) =>
  name.endsWith(moduleExt) && !name.startsWith("_") && name !== pluginEntry && !/\.d\.m?ts$/.test(name);

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A family's endpoint files, sorted so every machine loads them in the same order. */
export async function endpointFiles(family: string, pluginsDir = pluginsFolder): Promise<string[]> {
  const entries = await readdir(new URL(`${family}/`, pluginsDir), { withFileTypes: true });
  return entries
    .filter((d) => d.isFile() && isEndpointFile(d.name))
    .map((d) => d.name)
    .sort(byName);
}

/**
 * A family from its folder: the metadata of index.ts and, as its endpoints, every export of every endpoint
 * file, each of which must be a `defineEndpoint(...)`.
 */
export async function importFamily(family: string, pluginsDir = pluginsFolder): Promise<Plugin> {
  const at = `plugins/${family}/`;
  const { plugin, endpoints } = await familyModules(family, pluginsDir);
  if (!plugin?.upstreams) throw new Error(`${at}index.ts: default export is not definePlugin(...)`);
  if (plugin.family !== family) throw new Error(`${at}: family is "${plugin.family}", expected the folder name`);
  if (plugin.endpoints.length)
    throw new Error(`${at}index.ts lists endpoints: a family's endpoints are its files, found by scanning the folder`);
  const defs: EndpointDef<any, any, any, any>[] = [];
  for (const [file, module] of endpoints) {
    for (const [name, value] of Object.entries(module)) {
      if (!isEndpointDef(value))
        throw new Error(
          `${at}${file}: export ${name} is not an endpoint (defineEndpoint(...)); a helper goes in a _ file`,
        );
      defs.push(value);
    }
  }
  return { ...plugin, endpoints: inFamily(family, defs) };
}

/** A family's entry and each endpoint file's name with its exports. */
interface FamilyModules {
  plugin: Plugin | undefined;
  endpoints: [file: string, exports: Record<string, unknown>][];
}

/**
 * In dist/, the family's bundle (scripts/build.mjs): one module instead of a file each, since Node spends about a
 * millisecond on every module file it loads. In the sources, the entry and the endpoint files the folder holds.
 */
async function familyModules(family: string, pluginsDir: URL): Promise<FamilyModules> {
  const bundle = new URL(`${family}/${familyBundle}`, pluginsDir);
  if (moduleExt === ".mjs" && (await exists(bundle))) return import(bundle.href);
  const plugin = (await import(new URL(`${family}/${pluginEntry}`, pluginsDir).href)).default;
  const files = await endpointFiles(family, pluginsDir);
  const modules = await Promise.all(files.map((file) => import(new URL(`${family}/${file}`, pluginsDir).href)));
  return { plugin, endpoints: files.map((file, i) => [file, modules[i]]) };
}

const exists = (file: URL) =>
  access(file).then(
    () => true,
    () => false,
  );

export interface Loaded {
  /** Every endpoint of the loaded families; which are mounted is decided with the upstream configuration (`mountable`). */
  endpoints: Endpoint[];
  pages: PageDef[];
  assets: AssetDef[];
  jobs: (JobDef & { family: string })[];
  families: string[];
  plugins: Plugin[];
  /** Every upstream the loaded families declare, with the core's. */
  upstreams: UpstreamTable;
  /** Each family's settings, read from the environment at boot. */
  settings: Map<string, unknown>;
  /** The upstreams each family may call: its own and the core's. */
  upstreamNames: Map<string, string[]>;
  /** What the settings were read from: configuration over what the devnet will hold. */
  env: Readonly<Record<string, string | undefined>>;
  /** The contracts the families need deployed when the service runs its own devnet. */
  contracts: DevnetContract[];
  /** What that devnet will hold, as the settings were told. */
  devnet?: DevnetInfo;
  /** The upstreams pointed at the devnet's chain (`definePlugin({ devnet: { chainUpstreams } })`). */
  chainUpstreams: string[];
}

/** Every family folder with an entry module (`_shared` and other `_` folders are not families), sorted. */
export async function listFamilies(pluginsDir = pluginsFolder): Promise<string[]> {
  const dirs = await readdir(pluginsDir, { withFileTypes: true }).catch(() => []);
  const families: string[] = [];
  for (const d of dirs
    .filter((d) => d.isDirectory() && !d.name.startsWith("_"))
    .sort((a, b) => byName(a.name, b.name))) {
    if (await exists(new URL(`${d.name}/${pluginEntry}`, pluginsDir))) families.push(d.name);
  }
  return families;
}

export interface ImportOptions {
  /** PLUGINS: the families to load; all when unset. */
  only?: string[];
  /** Plugins given as values instead of folders under plugins/. */
  given?: Plugin[];
  /** Tests only: another folder of families than plugins/. */
  dir?: URL;
}

/** Imports the selected families (all when `only` is unset), then the core's own. */
export async function importPlugins(options: ImportOptions = {}): Promise<Plugin[]> {
  const dir = options.dir ?? pluginsFolder;
  const available = options.given ? options.given.map((p) => p.family) : await listFamilies(dir);
  const unknown = (options.only ?? []).filter((f) => !available.includes(f));
  if (unknown.length) {
    throw new Error(
      `Unknown plugin famil${unknown.length > 1 ? "ies" : "y"} in PLUGINS: ${unknown.join(", ")}. Valid families: ${available.join(", ")}`,
    );
  }
  const families = options.only ? available.filter((f) => options.only!.includes(f)) : available;
  const plugins: Plugin[] = [];
  for (const family of families) {
    plugins.push(options.given?.find((p) => p.family === family) ?? (await importFamily(family, dir)));
  }
  plugins.push(corePlugin);
  return plugins;
}

export interface LoadOptions extends ImportOptions {
  /** The environment the families' settings are read from: configuration. */
  env?: Readonly<Record<string, string | undefined>>;
  /** When the service runs its own devnet: what it will hold, given the contracts to deploy, and the service's own URL. */
  devnet?: { plan: (contracts: DevnetContract[]) => Omit<DevnetInfo, "selfUrl">; selfUrl: string };
  /** Plugins already imported (`importPlugins`). */
  plugins?: Plugin[];
  /** Tests only: settings that replace what a family read, by family. */
  settings?: Record<string, object>;
}

/**
 * Imports the selected families and checks them: names, routes, schemas, examples, upstream tables, and each
 * family's settings, read once from `env` over what the devnet will hold. Boot fails with every problem listed at once.
 */
export async function loadPlugins(options: LoadOptions = {}): Promise<Loaded> {
  const plugins = options.plugins ?? (await importPlugins(options));
  const contracts = plugins.flatMap((p) => p.devnet?.contracts ?? []);
  const devnet = options.devnet && { ...options.devnet.plan(contracts), selfUrl: options.devnet.selfUrl };
  const env = {
    ...(devnet && Object.assign({}, ...plugins.map((p) => p.devnet?.settings(devnet)))),
    ...options.env,
  };
  const upstreams = mergeUpstreams(plugins);
  const { settings, problems: unreadable } = readSettings(plugins, env, options.settings);
  const problems = [
    ...checkPlugins(plugins, upstreams.problems),
    ...unreadable,
    ...upstreamSettingProblems(env, upstreams.table),
  ];
  if (problems.length) throw new Error(`Plugins failed their checks:\n  ${problems.join("\n  ")}`);
  return {
    env,
    contracts,
    devnet,
    chainUpstreams: plugins.flatMap((p) => p.devnet?.chainUpstreams ?? []),
    endpoints: plugins.flatMap((p) => p.endpoints),
    families: plugins.map((p) => p.family),
    plugins,
    upstreams: upstreams.table,
    settings,
    upstreamNames: new Map(plugins.map((p) => [p.family, upstreamNamesOf(p, plugins)])),
    pages: plugins.flatMap((p) => p.pages),
    assets: plugins.flatMap((p) => p.assets),
    jobs: plugins.flatMap((p) => p.jobs.map((job) => ({ ...job, family: p.family }))),
  };
}

/** Each family's settings read from `env` (with a test's replacements); a problem per bad value, naming the family. */
function readSettings(
  plugins: Plugin[],
  env: Readonly<Record<string, string | undefined>>,
  overrides: Record<string, object> = {},
) {
  const settings = new Map<string, unknown>();
  const problems: string[] = [];
  for (const plugin of plugins) {
    try {
      const read = plugin.settings?.read(env);
      const override = overrides[plugin.family];
      settings.set(plugin.family, override ? { ...(read as object), ...override } : read);
    } catch (error) {
      problems.push(`${plugin.family}: ${(error as Error).message}`);
    }
  }
  return { settings, problems };
}

/** The upstreams a family may call: its own table and the core's. */
function upstreamNamesOf(plugin: Plugin, plugins: Plugin[]): string[] {
  const core = plugins.find((p) => p.family === "core");
  return [...Object.keys(plugin.upstreams), ...Object.keys(core?.upstreams ?? {})];
}

/** One table from every family's: a name declared twice must be the same entry (a family listing another's). */
function mergeUpstreams(plugins: Plugin[]): { table: UpstreamTable; problems: string[] } {
  const table: UpstreamTable = {};
  const owner = new Map<string, string>();
  const problems: string[] = [];
  for (const plugin of plugins) {
    for (const [name, entry] of Object.entries(plugin.upstreams)) {
      if (Object.hasOwn(table, name) && table[name] !== entry) {
        problems.push(
          `upstream ${name} (${plugin.family}): declared again with another entry; list ${owner.get(name)}'s entry instead`,
        );
        continue;
      }
      table[name] = entry;
      if (!owner.has(name)) owner.set(name, plugin.family);
    }
  }
  return { table, problems };
}

export function checkPlugins(plugins: Plugin[], upstreamProblems: string[] = []): string[] {
  const problems: string[] = [...upstreamProblems];
  const names = new Map<string, string>();
  const routes = new Map<string, string>();
  const jobs = new Map<string, string>();
  for (const plugin of plugins) {
    const known = new Set(upstreamNamesOf(plugin, plugins));
    for (const e of plugin.endpoints) {
      const at = `${e.name} (${plugin.family})`;
      if (names.has(e.name)) problems.push(`${at}: duplicate name, also in ${names.get(e.name)}`);
      names.set(e.name, plugin.family);
      const route = `${e.method} ${e.path}`;
      if (routes.has(route)) problems.push(`${at}: duplicate route ${route}, also ${routes.get(route)}`);
      routes.set(route, e.name);
      if (!/^\$\d+(\.\d+)?$/.test(e.price))
        problems.push(`${at}: price "${e.price}" is not a money string like $0.005`);
      for (const u of [...(e.upstreams ?? []), ...(e.optionalUpstreams ?? [])])
        if (!known.has(u)) problems.push(`${at}: upstream ${u} is not in the ${plugin.family} family's table`);
      if (e.settings && e.settings !== plugin.settings)
        problems.push(`${at}: its settings are not the ${plugin.family} family's`);
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
      if (routes.has(route))
        problems.push(`${page.path} (${plugin.family}): duplicate route, also ${routes.get(route)}`);
      routes.set(route, `a ${plugin.family} page`);
    }
    for (const job of plugin.jobs ?? []) {
      if (jobs.has(job.name))
        problems.push(`job ${job.name} (${plugin.family}): duplicate name, also in ${jobs.get(job.name)}`);
      jobs.set(job.name, plugin.family);
      for (const u of job.upstreams ?? [])
        if (!known.has(u))
          problems.push(`job ${job.name}: upstream ${u} is not in the ${plugin.family} family's table`);
      if (job.settings && job.settings !== plugin.settings)
        problems.push(`job ${job.name}: its settings are not the ${plugin.family} family's`);
    }
  }
  return problems;
}

const summarize = (issues: readonly v.BaseIssue<unknown>[]) =>
  issues
    .slice(0, 3)
    .map((i) => `${v.getDotPath(i) ?? "(root)"} ${i.message}`)
    .join("; ");
