import { eachSample, readProfile, readWindows, type ProfileNode } from "./lib/cpuprofile.ts";

/**
 * What one path costs over another, function by function, from one profile of both (as bench/profile-vouchers.ts
 * writes it, with the windows each path ran in):
 *   npx tsx bench/profile-diff.ts <dir>/CPU.*.cpuprofile <dir>/windows.json voucher credit [calls per path] [top]
 * prints the self time per call of each function in the first path's windows, the second's, and the difference,
 * largest first. Calls per path defaults to 1 (then the figures are totals, in µs).
 */
const [file, windowsFile, first, second, callsArg, topArg] = process.argv.slice(2);
if (!file || !windowsFile || !first || !second) {
  console.error(
    "usage: npx tsx bench/profile-diff.ts <file.cpuprofile> <windows.json> <path> <other path> [calls] [top]",
  );
  process.exit(2);
}
const calls = Number(callsArg ?? 1);
const profile = readProfile(file);
const place = (url: string) => url.replace(/^file:\/\/.*?\/(dist|node_modules)\//, "$1/").replace(/^file:\/\//, "");
const keyOf = ({ callFrame: f }: ProfileNode) =>
  `${f.functionName || "(anonymous)"} ${place(f.url)}:${f.lineNumber + 1}`;

/** Self time (µs) of each function inside the named windows, idle excluded. */
function selfIn(name: string): Map<string, number> {
  const self = new Map<string, number>();
  eachSample(profile, readWindows(windowsFile, name), (node, dt) => {
    if (node.callFrame.functionName !== "(idle)") self.set(keyOf(node), (self.get(keyOf(node)) ?? 0) + dt);
  });
  return self;
}

const a = selfIn(first);
const b = selfIn(second);
const sum = (m: Map<string, number>) => [...m.values()].reduce((s, v) => s + v, 0) / calls;
console.log(`${first} ${sum(a).toFixed(1)} µs, ${second} ${sum(b).toFixed(1)} µs per call (busy samples)`);
console.log(`${"diff".padStart(8)} ${first.padStart(8)} ${second.padStart(8)}  function`);
const rows = [...new Set([...a.keys(), ...b.keys()])].map((k) => {
  const x = (a.get(k) ?? 0) / calls;
  const y = (b.get(k) ?? 0) / calls;
  return { k, x, y, d: x - y };
});
for (const { k, x, y, d } of rows.sort((r, s) => s.d - r.d).slice(0, Number(topArg ?? 40)))
  console.log(`${d.toFixed(1).padStart(8)} ${x.toFixed(1).padStart(8)} ${y.toFixed(1).padStart(8)}  ${k}`);
