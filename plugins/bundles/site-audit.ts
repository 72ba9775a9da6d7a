import * as v from "valibot";
import { defineBundle, skip } from "./_compose.ts";
import { certDaysLeft, tlsTarget, UrlInput } from "./_site.ts";
import { examples } from "./_examples.ts";

interface MetaData {
  title?: string | null;
  description?: string | null;
  canonical?: string | null;
  viewport?: string | null;
  lang?: string | null;
  openGraph?: Record<string, unknown>;
}
interface RobotsData {
  allowed?: boolean;
  sitemaps?: string[];
}
interface ContentData {
  words?: number;
  headings?: { level: number }[];
  readability?: { fleschReadingEase: number };
}
type Priority = "high" | "medium" | "low";
interface Fix {
  priority: Priority;
  area: string;
  fix: string;
}

const ORDER: Record<Priority, number> = { high: 0, medium: 1, low: 2 };

/** The SEO checks, each worth the same share of the SEO score. */
function seoFixes(meta?: MetaData, robots?: RobotsData, content?: ContentData): { checked: number; fixes: Fix[] } {
  const fixes: Fix[] = [];
  const rules: [boolean | undefined, Fix][] = [
    [meta && !meta.title, { priority: "high", area: "seo", fix: "add a <title>" }],
    [meta && !meta.description, { priority: "medium", area: "seo", fix: "add a meta description" }],
    [meta && !meta.canonical, { priority: "low", area: "seo", fix: "add a canonical link" }],
    [meta && !meta.viewport, { priority: "high", area: "mobile", fix: "add a viewport meta tag" }],
    [meta && !meta.lang, { priority: "low", area: "accessibility", fix: "set the lang attribute on <html>" }],
    [
      meta && !Object.keys(meta.openGraph ?? {}).length,
      { priority: "low", area: "social", fix: "add Open Graph tags" },
    ],
    [
      robots && robots.allowed === false,
      { priority: "high", area: "seo", fix: "robots.txt blocks crawlers from this page" },
    ],
    [robots && !robots.sitemaps?.length, { priority: "low", area: "seo", fix: "list a sitemap in robots.txt" }],
    [
      content && !content.headings?.some((h) => h.level === 1),
      { priority: "medium", area: "seo", fix: "add one <h1>" },
    ],
  ];
  for (const [failed, fix] of rules) if (failed) fixes.push(fix);
  return { checked: rules.filter(([failed]) => failed !== undefined).length, fixes };
}

export default defineBundle({
  name: "site-audit",
  price: "$0.08",
  summary:
    "SEO, speed and security audit of a page: meta tags, robots and sitemaps, headings and readability, page speed, security headers, TLS, tech stack, with a score and prioritized fixes",
  description:
    "Composes meta-tags, robots, content-analyze, page-speed, security-headers, ssl-certificate (https URLs), tech-stack and url-info. " +
    "score is the mean of the category scores that could be computed: SEO (share of the meta, robots and heading checks passed), speed (page-speed's score) and security (security-headers' score). fixes lists what failed, high priority first. Sampled link checks and sitemap parsing are not included.",
  input: v.object({ url: UrlInput }),
  parts: {
    meta: "meta-tags",
    robots: "robots",
    content: "content-analyze",
    speed: "page-speed",
    headers: "security-headers",
    tls: "ssl-certificate",
    tech: "tech-stack",
    info: "url-info",
  },
  plan({ url }) {
    return {
      meta: { url },
      robots: { url },
      content: { url, keywords: 10 },
      speed: { url },
      headers: { url },
      tls: tlsTarget(url) ?? skip("plain http: no certificate"),
      tech: { url },
      info: { url },
    };
  },
  digest: v.object({
    score: v.pipe(
      v.nullable(v.number()),
      v.description("0-100: the mean of the category scores below that could be computed"),
    ),
    categories: v.object({
      seo: v.pipe(v.nullable(v.number()), v.description("Share of SEO checks passed, 0-100")),
      speed: v.pipe(v.nullable(v.number()), v.description("page-speed's score, 0-100")),
      security: v.pipe(v.nullable(v.number()), v.description("security-headers' score, 0-100")),
    }),
    fixes: v.pipe(
      v.array(v.object({ priority: v.picklist(["high", "medium", "low"]), area: v.string(), fix: v.string() })),
      v.description("What to fix, high priority first"),
    ),
    technologies: v.array(v.string()),
  }),
  summarize(data, { url }) {
    const seo = seoFixes(
      data.meta as MetaData | undefined,
      data.robots as RobotsData | undefined,
      data.content as ContentData | undefined,
    );
    const speed = (data.speed as { score?: number } | undefined)?.score ?? null;
    const headers = data.headers as { score?: number; grade?: string } | undefined;
    const fixes = [...seo.fixes];
    if (speed !== null && speed < 50)
      fixes.push({ priority: "high", area: "speed", fix: `page speed score ${speed}: see the speed part's factors` });
    if (headers?.grade && ["C", "D", "F"].includes(headers.grade))
      fixes.push({
        priority: "medium",
        area: "security",
        fix: `security headers graded ${headers.grade}: see the headers part's advice`,
      });
    if (url.startsWith("http:")) fixes.push({ priority: "high", area: "security", fix: "serve the site over https" });
    const days = certDaysLeft(data.tls);
    if (days !== undefined && days < 14)
      fixes.push({ priority: "high", area: "security", fix: `renew the certificate (${days} days left)` });
    const categories = {
      seo: seo.checked ? Math.round(((seo.checked - seo.fixes.length) / seo.checked) * 100) : null,
      speed,
      security: headers?.score ?? null,
    };
    const known = Object.values(categories).filter((x): x is number => x !== null);
    return {
      score: known.length ? Math.round(known.reduce((a, b) => a + b, 0) / known.length) : null,
      categories,
      fixes: fixes.sort((a, b) => ORDER[a.priority] - ORDER[b.priority]),
      technologies: ((data.tech as { technologies?: { name: string }[] } | undefined)?.technologies ?? []).map(
        (t) => t.name,
      ),
    };
  },
  target: ({ url }) => url,
  example: examples["site-audit"],
});
