import { readFileSync } from "node:fs";

export interface RssSample {
  /** Seconds since sampling started. */
  atS: number;
  rssMB: number;
  /** What was running when the sample was taken (set with `phase`). */
  phase: string;
}

export interface RssSampler {
  /** Labels the samples taken from now on. */
  phase(name: string): void;
  stop(): RssSample[];
}

/** Resident memory of a process from /proc/<pid>/status (VmRSS), in MB; undefined once it has exited. */
export function readRssMB(pid: number): number | undefined {
  try {
    const kB = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kB === undefined ? undefined : Number(kB) / 1024;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS now and then every `intervalMs` until stopped. */
export function sampleRss(pid: number, intervalMs = 1000): RssSampler {
  const started = performance.now();
  const samples: RssSample[] = [];
  let phase = "idle";
  const take = () => {
    const rssMB = readRssMB(pid);
    if (rssMB !== undefined) samples.push({ atS: (performance.now() - started) / 1000, rssMB, phase });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    phase(name) {
      phase = name;
    },
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

export interface RssSummary {
  samples: number;
  firstMB: number;
  minMB: number;
  medianMB: number;
  maxMB: number;
  lastMB: number;
  /** The last sample of each phase, in the order the phases ran. */
  endOfPhaseMB: Array<{ phase: string; rssMB: number }>;
}

export function summarizeRss(samples: RssSample[]): RssSummary {
  const sorted = samples.map((s) => s.rssMB).sort((a, b) => a - b);
  const endOfPhaseMB: RssSummary["endOfPhaseMB"] = [];
  for (const s of samples) {
    const last = endOfPhaseMB.at(-1);
    if (last?.phase === s.phase) last.rssMB = s.rssMB;
    else endOfPhaseMB.push({ phase: s.phase, rssMB: s.rssMB });
  }
  return {
    samples: samples.length,
    firstMB: samples[0].rssMB,
    minMB: sorted[0],
    medianMB: sorted[Math.floor(sorted.length / 2)],
    maxMB: sorted.at(-1)!,
    lastMB: samples.at(-1)!.rssMB,
    endOfPhaseMB,
  };
}
