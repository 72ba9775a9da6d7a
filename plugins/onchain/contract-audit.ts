import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { notFound } from "../../core/runtime/errors.ts";
import { compilerFindings, findAll, rules } from "./_audit-rules.ts";
import { chainField, chainInfo } from "../_shared/chains.ts";
import { addressField, checksummed } from "../_shared/onchain-inputs.ts";
import { proxyOf, sourcifyContract, sourcifyPage } from "./_sourcify.ts";

const SOURCE = "sourcify verified source";
const weights = { high: 30, medium: 15, low: 5, info: 0 } as const;

export default defineEndpoint({
  name: "contract-audit",
  method: "GET",
  price: "$0.05",
  summary:
    "Automated review of a verified contract's source: owner powers, self-destruct, delegatecall, tx.origin, upgradeability, compiler",
  description:
    "Reads the verified source from Sourcify and runs pattern rules over every file (comments removed): self-destruct and tx.origin authorisation (high, 30 points), delegatecall, privileged mint, pause, blacklist and fee setters (medium, 15), upgradeability, unchecked low-level calls and pre-0.8 compilers (low, 5). Each finding gives its file, line and the matched code; the score (0-100, capped) is the sum of one weight per rule that fired. A pattern review, not a manual audit: it finds powers and smells, not logic bugs. A contract without verified source is a 404 (nothing to review).",
  input: v.object({ address: addressField("Contract address"), chain: chainField() }),
  output: v.object({
    chain: v.string(),
    address: v.string(),
    name: v.nullable(v.string()),
    compilerVersion: v.nullable(v.string()),
    score: v.pipe(v.number(), v.description("0 (nothing found) to 100")),
    level: v.picklist(["low", "medium", "high"]),
    findings: v.array(
      v.object({
        id: v.string(),
        severity: v.picklist(["high", "medium", "low", "info"]),
        title: v.string(),
        points: v.number(),
        source: v.string(),
        locations: v.array(v.object({ file: v.string(), line: v.number(), evidence: v.string() })),
      }),
    ),
    proxy: v.object({
      isProxy: v.boolean(),
      type: v.nullable(v.string()),
      implementations: v.array(v.object({ address: v.string(), name: v.nullable(v.string()) })),
    }),
    filesReviewed: v.number(),
    url: v.string(),
  }),
  example: {
    input: { address: "0x6B175474E89094C44Da98b954EedeAC495271d0F", chain: "ethereum" },
    output: {
      chain: "ethereum",
      address: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
      name: "Dai",
      compilerVersion: "0.5.12+commit.7709ece9",
      score: 5,
      level: "low",
      findings: [
        {
          id: "old-compiler",
          severity: "low",
          title: "Compiled with solc 0.5.12: no built-in overflow checks",
          points: 5,
          source: "sourcify verified source",
          locations: [],
        },
      ],
      proxy: { isProxy: false, type: null, implementations: [] },
      filesReviewed: 1,
      url: "https://repo.sourcify.dev/1/0x6B175474E89094C44Da98b954EedeAC495271d0F",
    },
  },
  cacheTtl: 86_400,
  upstreams: ["sourcify"],
  async handler({ input, upstream }) {
    const address = checksummed(input.address);
    const chainId = chainInfo(input.chain).id;
    const found = await sourcifyContract(upstream("sourcify"), chainId, address, [
      "sources",
      "compilation",
      "proxyResolution",
    ]);
    if (!found?.match)
      throw notFound(`Sourcify has no verified source for ${address} on ${input.chain}: nothing to review`);
    const files = Object.entries(found.sources ?? {});
    const version = found.compilation?.compilerVersion ?? null;
    const findings = [
      ...rules.flatMap((rule) => {
        const locations = files.flatMap(([path, file]) => findAll(rule, path, file.content));
        return locations.length
          ? [
              {
                id: rule.id,
                severity: rule.severity,
                title: rule.title,
                points: weights[rule.severity],
                source: SOURCE,
                locations,
              },
            ]
          : [];
      }),
      ...compilerFindings(version).map((f) => ({ ...f, points: weights[f.severity], source: SOURCE, locations: [] })),
    ];
    const score = Math.min(
      100,
      findings.reduce((sum, f) => sum + f.points, 0),
    );
    return {
      chain: input.chain,
      address,
      name: found.compilation?.name ?? null,
      compilerVersion: version,
      score,
      level: score >= 50 ? ("high" as const) : score >= 20 ? ("medium" as const) : ("low" as const),
      findings,
      proxy: proxyOf(found.proxyResolution),
      filesReviewed: files.length,
      url: sourcifyPage(chainId, address),
    };
  },
});
