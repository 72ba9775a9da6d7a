import { escapeHtml } from "../shared.ts";
import type { Status, StatusLine } from "./status.ts";

/** The status page's body: figures, two charts of the hour and a line per family and per upstream, no script. */
export function renderStatus(s: Status): string {
  // Busiest first; the lines come sorted by name, and the sort keeps that order among equals.
  const busy = <T extends StatusLine>(lines: T[]) => [...lines].sort((a, b) => b.calls - a.calls);
  const openBreakers = s.upstreams.filter((u) => u.breaker !== "closed").length;
  const calls = s.overall.perMinute?.calls ?? Array(60).fill(0);
  const failed = s.overall.perMinute?.failed ?? Array(60).fill(0);
  const settleP95 = s.settlements.perMinute?.p95 ?? Array(60).fill(null);
  return `<style>${styles}</style>
<h1>Status</h1>
<p class="muted">This instance over the last hour, minute by minute. Up ${duration(s.uptimeSeconds)} (since ${escapeHtml(s.startedAt.slice(0, 16).replace("T", " "))} UTC). Built ${escapeHtml(s.generatedAt.slice(11, 19))} UTC; the same as JSON: <a href="/status.json">/status.json</a>.</p>
<div class="figures">
${figure("Calls", String(s.overall.calls))}
${figure("Success", rate(s.overall.successRate), rateClass(s.overall.successRate))}
${figure("Latency p50 / p95", latency(s.overall))}
${figure("Settlement p50 / p95", latency(s.settlements))}
${figure("Pending settlements", s.settlements.pending === null ? "unknown" : String(s.settlements.pending), s.settlements.pending ? "bad" : "")}
${figure("Breakers open", `${openBreakers} of ${s.upstreams.length}`, openBreakers ? "bad" : "good")}
</div>
<section class="card">
<h2>Calls per minute</h2>
${bars(calls, failed, `Calls per minute over the last hour: ${s.overall.calls} calls, ${s.overall.failed} failed`)}
<p class="legend">Top of the chart: ${Math.max(1, ...calls)} calls a minute. <span class="key ok"></span>answered <span class="key failed"></span>failed on our side</p>
</section>
<section class="card">
<h2>Settlement time, p95 per minute</h2>
${linePlot(settleP95, `Settlement time p95 per minute over the last hour: ${s.settlements.calls} settlements, p95 ${s.settlements.latencyMs?.p95 ?? "none"} ms`)}
</section>
<section class="card">
<h2>Families</h2>
<table class="status">
<thead><tr><th scope="col">Family</th><th scope="col">Calls</th><th scope="col">Success</th><th scope="col">p50 / p95</th><th scope="col" class="spark">Last hour</th></tr></thead>
<tbody>
${busy(s.families)
  .map(
    (f) =>
      `<tr><th scope="row">${escapeHtml(f.family)}</th><td>${f.calls}</td><td class="${rateClass(f.successRate)}">${rate(f.successRate)}</td><td>${latency(f)}</td><td class="spark">${spark(f)}</td></tr>`,
  )
  .join("\n")}
</tbody>
</table>
</section>
<section class="card">
<h2>Upstreams</h2>
<table class="status">
<thead><tr><th scope="col">Upstream</th><th scope="col">Breaker</th><th scope="col">Calls</th><th scope="col">Success</th><th scope="col">p50 / p95</th></tr></thead>
<tbody>
${busy(s.upstreams)
  .map(
    (u) =>
      `<tr><th scope="row">${escapeHtml(u.upstream)}</th><td class="${u.breaker === "closed" ? "good" : "bad"}">${u.breaker}</td><td>${u.calls}</td><td class="${rateClass(u.successRate)}">${rate(u.successRate)}</td><td>${latency(u)}</td></tr>`,
  )
  .join("\n")}
</tbody>
</table>
</section>`;
}

const figure = (label: string, value: string, tone = "") =>
  `<div class="figure"><div class="label">${escapeHtml(label)}</div><div class="value ${tone}">${escapeHtml(value)}</div></div>`;

const rate = (r: number | null) => (r === null ? "–" : `${(r * 100).toFixed(r === 1 ? 0 : 1)}%`);
const rateClass = (r: number | null) => (r === null ? "" : r >= 0.99 ? "good" : r < 0.95 ? "bad" : "");
const latency = (l: StatusLine) => (l.latencyMs ? `${ms(l.latencyMs.p50)} / ${ms(l.latencyMs.p95)}` : "–");
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);

function duration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min`;
}

const width = 600;
const height = 120;

/** One bar a minute, the failed part on top in the failure colour; the axis says how many calls the top is. */
function bars(calls: number[], failed: number[], label: string): string {
  const top = Math.max(1, ...calls);
  const step = width / calls.length;
  const scale = (n: number) => (n / top) * (height - 16);
  const rects = calls
    .map((n, i) => {
      if (!n) return "";
      const x = (i * step + 1).toFixed(1);
      const w = (step - 2).toFixed(1);
      const all = scale(n);
      const bad = scale(failed[i]);
      return `<rect x="${x}" y="${(height - all).toFixed(1)}" width="${w}" height="${(all - bad).toFixed(1)}" class="ok"/>${bad ? `<rect x="${x}" y="${(height - bad).toFixed(1)}" width="${w}" height="${bad.toFixed(1)}" class="failed"/>` : ""}`;
    })
    .join("");
  return chart(label, rects);
}

/** A line over the minutes that had a value; a gap where a minute had none. */
function linePlot(values: (number | null)[], label: string): string {
  const known = values.filter((v): v is number => v !== null);
  if (!known.length) return `<p class="muted">No settlement in the last hour.</p>`;
  const top = Math.max(...known);
  const step = width / (values.length - 1);
  const points = values.map((v, i) =>
    v === null ? null : `${(i * step).toFixed(1)},${(height - 4 - (v / top) * (height - 20)).toFixed(1)}`,
  );
  const segments: string[][] = [[]];
  for (const p of points) p === null ? segments.push([]) : segments[segments.length - 1].push(p);
  const paths = segments
    .filter((s) => s.length)
    .map((s) =>
      s.length === 1
        ? `<circle cx="${s[0].split(",")[0]}" cy="${s[0].split(",")[1]}" r="2.5" class="dot"/>`
        : `<polyline points="${s.join(" ")}" class="line"/>`,
    )
    .join("");
  return `${chart(label, paths)}<p class="legend">Top of the chart: ${ms(top)}.</p>`;
}

const chart = (label: string, content: string) =>
  `<svg viewBox="0 0 ${width} ${height}" class="chart" role="img" aria-label="${escapeHtml(label)}" preserveAspectRatio="none"><line x1="0" y1="${height - 0.5}" x2="${width}" y2="${height - 0.5}" class="base"/>${content}</svg>`;

/** A family's calls a minute as a small line (decorative: the row's figures say the same). */
function spark(line: StatusLine): string {
  const calls = line.perMinute?.calls;
  if (!calls) return "";
  const top = Math.max(1, ...calls);
  const points = calls.map((n, i) => `${(i * 100) / 59},${(19 - (n / top) * 17).toFixed(1)}`).join(" ");
  return `<svg viewBox="0 0 100 20" class="sparkline" aria-hidden="true" preserveAspectRatio="none"><polyline points="${points}"/></svg>`;
}

const styles = `
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; margin-bottom: 16px; }
.figure { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px; }
.figure .label { color: var(--muted); font-size: 13px; }
.figure .value { font-size: 20px; font-weight: 600; }
.card h2 { font-size: 16px; margin: 0 0 8px; }
.chart { display: block; width: 100%; height: 120px; }
.chart .ok { fill: #0969da; }
.chart .failed { fill: var(--bad); }
.chart .base { stroke: var(--line); }
.chart .line { fill: none; stroke: #0969da; stroke-width: 2; vector-effect: non-scaling-stroke; }
.chart .dot { fill: #0969da; }
.legend { font-size: 13px; color: var(--muted); margin: 6px 0 0; }
.key { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 8px; vertical-align: baseline; }
.key.ok { background: #0969da; }
.key.failed { background: var(--bad); }
table.status th[scope="row"] { font-weight: 500; }
table.status td, table.status th { white-space: nowrap; }
table.status th[scope="row"] { white-space: normal; overflow-wrap: anywhere; }
.sparkline { width: 100px; height: 20px; display: block; }
.sparkline polyline { fill: none; stroke: #0969da; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
@media (max-width: 640px) {
  .spark { display: none; }
  table.status td, table.status th { padding: 6px 4px; font-size: 13px; white-space: normal; }
  /* A column's heading stays whole; a long upstream name breaks instead. */
  table.status thead th, table.status td { overflow-wrap: normal; }
}
`;
