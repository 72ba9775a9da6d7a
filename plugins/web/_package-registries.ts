import * as v from "valibot";
import type { Upstream } from "../../core/endpoint.ts";
import { ServiceError } from "../../core/runtime/errors.ts";

export interface PackageFacts {
  latest: string | null;
  license: string | null;
  deprecated: boolean | null;
  deprecationMessage: string | null;
  maintainers: number | null;
  lastPublish: string | null;
  url: string;
}

const License = v.nullish(v.union([v.string(), v.object({ type: v.nullish(v.string()) })]));
const s = v.nullish(v.string());
/** What the code reads of npm's packument: an existing package always has a latest tag. */
const Packument = v.object({
  "dist-tags": v.object({ latest: v.string() }),
  license: License,
  maintainers: v.nullish(v.array(v.unknown())),
  time: v.nullish(v.record(v.string(), v.string())),
  versions: v.nullish(
    v.record(
      v.string(),
      v.object({ license: License, deprecated: v.nullish(v.unknown()), maintainers: v.nullish(v.array(v.unknown())) }),
    ),
  ),
});

/** What the code reads of PyPI's project JSON: an existing project always has a version. */
const PypiProject = v.object({
  info: v.object({
    version: v.string(),
    license: s,
    license_expression: s,
    classifiers: v.nullish(v.array(v.string())),
    yanked: v.nullish(v.boolean()),
    yanked_reason: s,
    package_url: s,
  }),
  urls: v.nullish(v.array(v.object({ upload_time_iso_8601: s }))),
});
type PypiProject = v.InferOutput<typeof PypiProject>;

/** Undefined when the registry has no such package (its 404), facts otherwise. */
async function orMissing<T>(lookup: Promise<T>): Promise<T | undefined> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
}

/** npm: the full document, because only it has licence, maintainers and publish times. */
export async function npmFacts(registry: Upstream, name: string): Promise<PackageFacts | undefined> {
  const path = `/${name.startsWith("@") ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name)}`;
  const doc = await orMissing(registry.json(path, Packument, { notFoundAs404: true }));
  const latest = doc?.["dist-tags"]?.latest;
  if (!doc || !latest) return undefined;
  const manifest = doc.versions?.[latest] ?? {};
  const license = manifest.license ?? doc.license;
  const deprecation = typeof manifest.deprecated === "string" ? manifest.deprecated : null;
  return {
    latest,
    license: (typeof license === "string" ? license : license?.type) ?? null,
    deprecated: deprecation !== null,
    deprecationMessage: deprecation || null,
    maintainers: (doc.maintainers ?? manifest.maintainers)?.length ?? null,
    lastPublish: isoOrNull(doc.time?.[latest]),
    url: `https://www.npmjs.com/package/${name}`,
  };
}

/** PyPI: no maintainer list in its JSON API; "Development Status :: 7 - Inactive" or a yanked release counts as deprecated. */
export async function pypiFacts(pypi: Upstream, name: string): Promise<PackageFacts | undefined> {
  const doc = await orMissing(pypi.json(`/${encodeURIComponent(name)}/json`, PypiProject, { notFoundAs404: true }));
  const info = doc?.info;
  if (!info?.version) return undefined;
  const inactive = (info.classifiers ?? []).includes("Development Status :: 7 - Inactive");
  const uploads = (doc?.urls ?? [])
    .map((u) => u.upload_time_iso_8601)
    .filter((t): t is string => Boolean(t))
    .sort();
  return {
    latest: info.version,
    license: licenseOf(info),
    deprecated: inactive || info.yanked === true,
    deprecationMessage: info.yanked
      ? info.yanked_reason || "the latest release is yanked"
      : inactive
        ? "Development Status :: 7 - Inactive"
        : null,
    maintainers: null,
    lastPublish: isoOrNull(uploads.at(-1)),
    url: info.package_url || `https://pypi.org/project/${name}/`,
  };
}

/** SPDX expression first, then a short licence field, then the OSI classifier. */
function licenseOf(info: NonNullable<PypiProject["info"]>): string | null {
  if (info.license_expression) return info.license_expression;
  const short = info.license?.trim();
  if (short && short.length <= 80 && !short.includes("\n")) return short;
  const classifier = (info.classifiers ?? []).find((c) => c.startsWith("License :: "));
  return classifier ? classifier.split(" :: ").at(-1)! : null;
}

/** OSV answers {} for a version with no known vulnerability. */
const OsvAnswer = v.object({ vulns: v.nullish(v.array(v.object({ id: v.string() }))) });

/** Known vulnerabilities of one version (OSV POST /v1/query). */
export async function vulnerabilitiesOf(osv: Upstream, ecosystem: "npm" | "PyPI", name: string, version: string) {
  const answer = await osv.json("/query", OsvAnswer, {
    method: "POST",
    body: { version, package: { name, ecosystem } },
  });
  const ids = (answer.vulns ?? []).map((v) => v.id);
  return { count: ids.length, ids };
}

function isoOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
