import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { npmFacts, pypiFacts, vulnerabilitiesOf } from "./_package-registries.ts";

export default defineEndpoint({
  name: "package-check",
  method: "GET",
  price: "$0.005",
  summary:
    "Check an npm or PyPI package: exists, latest version, licence, deprecation, maintainers, last publish, known vulnerabilities",
  description:
    "Reads the npm registry (full package document) or PyPI's JSON API, then asks OSV.dev for vulnerabilities affecting the latest version. " +
    "PyPI publishes no maintainer list in its API, so `maintainers` is null there; PyPI has no deprecation flag either, so a project marked " +
    "'Development Status :: 7 - Inactive' or whose latest release is yanked counts as deprecated. A package that does not exist is " +
    "answered with exists=false.",
  input: v.object({
    name: v.pipe(
      v.string(),
      v.maxLength(214),
      v.regex(/^(@[a-z0-9][\w.~-]*\/)?[A-Za-z0-9][\w.~-]*$/, "not a valid npm or PyPI package name"),
      v.description("Package name, e.g. express, @types/node or requests"),
    ),
    ecosystem: v.optional(v.pipe(v.picklist(["npm", "pypi"]), v.description("Registry to check")), "npm"),
  }),
  output: v.object({
    ecosystem: v.picklist(["npm", "pypi"]),
    name: v.string(),
    exists: v.boolean(),
    latest: v.nullable(v.string()),
    license: v.pipe(v.nullable(v.string()), v.description("SPDX id or the licence as published")),
    deprecated: v.nullable(v.boolean()),
    deprecationMessage: v.nullable(v.string()),
    maintainers: v.pipe(v.nullable(v.number()), v.description("Accounts that can publish (npm); null on PyPI")),
    lastPublish: v.pipe(v.nullable(v.string()), v.description("When the latest version was published, ISO 8601")),
    vulnerabilities: v.pipe(
      v.nullable(v.object({ count: v.number(), ids: v.array(v.string()) })),
      v.description("OSV advisories affecting the latest version; null when the package does not exist"),
    ),
    url: v.nullable(v.string()),
  }),
  example: {
    input: { name: "left-pad", ecosystem: "npm" },
    output: {
      ecosystem: "npm",
      name: "left-pad",
      exists: true,
      latest: "1.3.0",
      license: "WTFPL",
      deprecated: true,
      deprecationMessage: "use String.prototype.padStart()",
      maintainers: 1,
      lastPublish: "2018-04-09T01:22:39.813Z",
      vulnerabilities: { count: 0, ids: [] },
      url: "https://www.npmjs.com/package/left-pad",
    },
  },
  cacheTtl: 3600,
  upstreams: ["npm-registry", "pypi", "osv"],
  async handler({ input, upstream }) {
    const facts =
      input.ecosystem === "npm"
        ? await npmFacts(upstream("npm-registry"), input.name)
        : await pypiFacts(upstream("pypi"), input.name);
    if (!facts?.latest) {
      return {
        ecosystem: input.ecosystem,
        name: input.name,
        exists: false,
        latest: null,
        license: null,
        deprecated: null,
        deprecationMessage: null,
        maintainers: null,
        lastPublish: null,
        vulnerabilities: null,
        url: null,
      };
    }
    const vulnerabilities = await vulnerabilitiesOf(
      upstream("osv"),
      input.ecosystem === "npm" ? "npm" : "PyPI",
      input.name,
      facts.latest,
    );
    return { ecosystem: input.ecosystem, name: input.name, exists: true, ...facts, vulnerabilities };
  },
});
