import { resolve } from "node:path";

// A test that runs one of the project's TypeScript entry points as a process (a CLI, core/main.ts) starts it with
// the loader of its own process: under test/run.mjs the one reading the run's compiled cache, which starts a process
// ~1 s of CPU sooner than tsx compiling every module again; under TEST_LOADER=tsx, tsx, as `npm run` does.
const execArgv = process.execArgv;
const loader = execArgv.find((_, i) => execArgv[i - 1] === "--import") ?? "tsx";

/** `node` arguments that run `entry` (a path from the repository's root, or `-e` and a script) with that loader. */
export const tsNodeArgs = (...args: string[]): string[] => [
  "--import",
  loader.startsWith(".") ? resolve(loader) : loader,
  ...args,
];

/** The environment such a process needs to find the run's compiled cache, added to its own. */
export const tsNodeEnv = (): Record<string, string> =>
  process.env.TEST_TS_CACHE ? { TEST_TS_CACHE: process.env.TEST_TS_CACHE } : {};
