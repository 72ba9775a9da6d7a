// Runs a caller's regular expression in a worker thread (plain JavaScript: worker threads do not get the tsx
// loader). JavaScript's engine backtracks, so _regex.ts gives each run a deadline and kills a worker that misses it.
import { serveJobs } from "../../core/runtime/worker-jobs.mjs";

// Output characters one job may return; past this the answer is truncated or refused.
const BUDGET = 1000000;

function describe(m) {
  return {
    match: m[0],
    index: m.index,
    end: m.index + m[0].length,
    groups: m.slice(1).map((g) => (g === undefined ? null : g)),
    named: m.groups
      ? Object.fromEntries(Object.entries(m.groups).map(([k, g]) => [k, g === undefined ? null : g]))
      : null,
  };
}

function size(m) {
  return m.reduce((n, g) => n + (g ? g.length : 0), 0);
}

function match(re, text, limit) {
  const found = [];
  let spent = 0;
  const all = re.global ? text.matchAll(re) : [re.exec(text)].filter(Boolean);
  for (const m of all) {
    spent += size(m);
    if (found.length === limit || spent > BUDGET) return { matches: found, truncated: true };
    found.push(describe(m));
  }
  return { matches: found, truncated: false };
}

function replace(re, text, replacement) {
  const count = re.global ? Array.from(text.matchAll(re)).length : re.test(text) ? 1 : 0;
  re.lastIndex = 0;
  let result;
  try {
    result = text.replace(re, replacement);
  } catch (error) {
    if (error instanceof RangeError) result = { length: Infinity };
    else throw error;
  }
  if (result.length > BUDGET) throw new Error(`The result would be longer than ${BUDGET} characters`);
  return { result, replacements: count };
}

function split(re, text, limit) {
  const parts = text.split(re).map((p) => (p === undefined ? null : p));
  let spent = 0;
  let kept = 0;
  while (kept < parts.length && kept < limit && spent + (parts[kept] ? parts[kept].length : 0) <= BUDGET) {
    spent += parts[kept] ? parts[kept].length : 0;
    kept++;
  }
  return { parts: parts.slice(0, kept), truncated: kept < parts.length };
}

serveJobs(({ pattern, flags, text, op, replacement, limit }) => {
  const re = new RegExp(pattern, flags);
  if (op === "test") return { matched: re.test(text) };
  if (op === "match") return match(re, text, limit);
  if (op === "replace") return replace(re, text, replacement);
  return split(re, text, limit);
});
