import { loadHtml } from "../_shared/html-parsers.ts";
import { techRules, type TechRule } from "./_tech-rules.ts";

export type EvidenceSource = "header" | "meta" | "script" | "cookie" | "html" | "implied";

export interface Detected {
  name: string;
  category: string;
  version: string | null;
  evidence: { source: EvidenceSource; detail: string }[];
}

interface PageFacts {
  headers: Record<string, string>;
  generators: string[];
  scripts: string[];
  cookies: string[];
  html: string;
}

const maxEvidencePerRule = 5;

/** Technologies a page shows in its headers, generator tag, script URLs, cookies and markup. */
export function detectTechnologies(
  page: { url: string; headers: Record<string, string>; html: string },
  rules: TechRule[] = techRules,
): Detected[] {
  const facts = factsOf(page);
  const found = new Map<string, Detected>();
  for (const rule of rules) {
    const hit = match(rule, facts);
    if (hit) found.set(rule.name, hit);
  }
  for (const detected of [...found.values()]) {
    for (const implied of rules.find((r) => r.name === detected.name)?.implies ?? []) {
      const rule = rules.find((r) => r.name === implied);
      if (rule && !found.has(implied)) {
        found.set(implied, {
          name: implied,
          category: rule.category,
          version: null,
          evidence: [{ source: "implied", detail: `implied by ${detected.name}` }],
        });
      }
    }
  }
  return [...found.values()].sort((a, b) => a.category.localeCompare(b.category) || a.name.localeCompare(b.name));
}

function factsOf(page: { url: string; headers: Record<string, string>; html: string }): PageFacts {
  const $ = loadHtml(page.html);
  const generators = $('meta[name="generator" i]')
    .toArray()
    .map((el) => ($(el).attr("content") ?? "").trim())
    .filter(Boolean);
  const scripts = $("script[src]")
    .toArray()
    .flatMap((el) => absolute($(el).attr("src") ?? "", page.url));
  return {
    headers: page.headers,
    generators,
    scripts,
    cookies: cookieNames(page.headers["set-cookie"]),
    html: page.html,
  };
}

function match(rule: TechRule, facts: PageFacts): Detected | undefined {
  const evidence: Detected["evidence"] = [];
  let version: string | null = null;
  const note = (source: EvidenceSource, detail: string, found: RegExpExecArray) => {
    if (evidence.length < maxEvidencePerRule) evidence.push({ source, detail });
    version ??= found[1] ?? null;
  };
  for (const [name, pattern] of Object.entries(rule.headers ?? {})) {
    const value = facts.headers[name];
    const found = value === undefined ? null : pattern.exec(value);
    if (found) note("header", `${name}: ${value}`, found);
  }
  for (const generator of facts.generators) {
    const found = rule.generator?.exec(generator);
    if (found) note("meta", `generator: ${generator}`, found);
  }
  for (const src of facts.scripts) {
    const found = rule.scripts?.map((p) => p.exec(src)).find(Boolean);
    if (found) note("script", src, found);
  }
  for (const cookie of facts.cookies) {
    const found = rule.cookies?.map((p) => p.exec(cookie)).find(Boolean);
    if (found) note("cookie", cookie, found);
  }
  for (const pattern of rule.html ?? []) {
    const found = pattern.exec(facts.html);
    if (found) note("html", found[0].slice(0, 120), found);
  }
  return evidence.length ? { name: rule.name, category: rule.category, version, evidence } : undefined;
}

/** Cookie names from Set-Cookie headers joined with ", " (an Expires date's comma is not followed by name=). */
export function cookieNames(header: string | undefined): string[] {
  if (!header) return [];
  return [...new Set([...header.matchAll(/(?:^|,\s*)([^=;,\s]+)=/g)].map((m) => m[1]))];
}

function absolute(src: string, base: string): string[] {
  try {
    return [new URL(src, base).href];
  } catch {
    return [];
  }
}
