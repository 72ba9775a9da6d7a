import { relative } from "node:path";
import { eachSample, readProfile, readWindows, type ProfileNode } from "./lib/cpuprofile.ts";

/**
 * Summarizes a V8 .cpuprofile (from `npm run bench -- <scenario> --cpu-prof`):
 *   npx tsx bench/profile-summary.ts bench/profiles/402-ours-<ts>/<largest>.cpuprofile [top] [regex]
 * prints self time by package or project file, the top functions by self time, and the top project
 * functions by inclusive time (what each of our own functions costs with everything it calls).
 * With a regex, it also prints the inclusive time of every function (any package) whose name matches.
 * With --windows=<file.json>:<name>, only the samples inside the named windows count (bench/lib/cpuprofile.ts
 * readWindows: as bench/profile-vouchers.ts writes them beside the profile).
 */
const windowsArg = process.argv.find((a) => a.startsWith("--windows="))?.slice("--windows=".length);
const [file, topArg, matchArg] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const match = matchArg ? new RegExp(matchArg) : undefined;
if (!file) {
  console.error("usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = readProfile(file);
const root = process.cwd();

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);

function where(url: string): string {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return "node: internals";
  const path = url.replace(/^file:\/\//, "");
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  return relative(root, path);
}
const isProject = (url: string) => url.startsWith("file://") && !url.includes("node_modules");
const functionKey = (n: ProfileNode) =>
  `${n.callFrame.functionName || "(anonymous)"} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const selfByFunction = new Map<string, number>();
const selfByPlace = new Map<string, number>();
const inclusiveOfProject = new Map<string, number>();
const inclusiveOfMatched = new Map<string, number>();
const windows = windowsArg
  ? readWindows(windowsArg.slice(0, windowsArg.lastIndexOf(":")), windowsArg.slice(windowsArg.lastIndexOf(":") + 1))
  : [];
let total = 0;
let idle = 0;
eachSample(profile, windows, (node, dt) => {
  total += dt;
  const name = node.callFrame.functionName;
  if (name === "(idle)" || name === "(program)" || name === "(garbage collector)") {
    if (name === "(idle)") idle += dt;
    else selfByPlace.set(name, (selfByPlace.get(name) ?? 0) + dt);
    return;
  }
  const key = functionKey(node);
  selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + dt);
  const place = where(node.callFrame.url);
  selfByPlace.set(place, (selfByPlace.get(place) ?? 0) + dt);
  const seen = new Set<string>();
  for (let cur: number | undefined = node.id; cur !== undefined; cur = parentOf.get(cur)) {
    const n = byId.get(cur)!;
    const matched = match?.test(n.callFrame.functionName) ?? false;
    if (!matched && !isProject(n.callFrame.url)) continue;
    const k = functionKey(n);
    if (seen.has(k)) continue;
    seen.add(k);
    if (isProject(n.callFrame.url)) inclusiveOfProject.set(k, (inclusiveOfProject.get(k) ?? 0) + dt);
    if (matched) inclusiveOfMatched.set(k, (inclusiveOfMatched.get(k) ?? 0) + dt);
  }
});

const busy = total - idle;
const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
const print = (title: string, m: Map<string, number>, count: number) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`  ${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
};
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (percentages are of busy time)`,
);
print("Self time by package / project file", selfByPlace, top);
print("Top functions by self time", selfByFunction, top);
print("Project functions by inclusive time", inclusiveOfProject, top);
if (match) print(`Functions matching ${match} by inclusive time`, inclusiveOfMatched, top);
