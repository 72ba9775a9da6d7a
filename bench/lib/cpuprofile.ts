import { readFileSync } from "node:fs";

/** A V8 .cpuprofile, as `--cpu-prof` writes it. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export const readProfile = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Profile;

/**
 * The windows named `name` in a file of { name: [[startUs, endUs], ...] } on the monotonic clock the profile's
 * timestamps use (process.hrtime in µs), as bench/profile-vouchers.ts writes it beside the profile.
 */
export function readWindows(file: string, name: string): [number, number][] {
  const windows = (JSON.parse(readFileSync(file, "utf8")) as Record<string, [number, number][]>)[name];
  if (!windows?.length) throw new Error(`${file} names no windows "${name}"`);
  return windows;
}

/** Each sample (its node, and its duration in µs) taken inside one of `windows`, or every sample when none are given. */
export function eachSample(
  profile: Profile,
  windows: [number, number][],
  visit: (node: ProfileNode, us: number) => void,
) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (windows.length && !windows.some(([start, end]) => at >= start && at <= end)) return;
    visit(byId.get(id)!, dt);
  });
}
