import type { Devnet } from "../lib/devnet.ts";
import type { LoadRow } from "../lib/load.ts";

/** One scenario's part of RESULTS.md. */
export interface Section {
  id: string;
  title: string;
  notes: string[];
  /** Load runs, rendered as the standard table. */
  rows: LoadRow[];
  /** Any other table, already in markdown (the signature micro-benchmark). */
  table?: string[];
  /** Numbers the goals read (e.g. microseconds per signature check). */
  figures?: Record<string, number>;
  /** The machine's 1-minute load average before and after the scenario (set by the runner). */
  load?: { before: number; after: number };
}

export interface BenchContext {
  /** The one devnet of the bench process, started on first use. */
  devnet(): Promise<Devnet>;
  /** Extra Node flags for a server child (`--cpu-prof` when profiling). */
  nodeArgs(server: string, scenario: string): string[];
  log(message: string): void;
}

export interface Scenario {
  /** What `npm run bench -- <id>` selects. */
  id: string;
  run(ctx: BenchContext): Promise<Section>;
}
