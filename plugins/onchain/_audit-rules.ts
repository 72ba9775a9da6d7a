/** Pattern rules over verified Solidity source: each names what it looks for, so a finding explains itself. */
export interface Rule {
  id: string;
  severity: "high" | "medium" | "low" | "info";
  title: string;
  pattern: RegExp;
}

export const rules: Rule[] = [
  {
    id: "selfdestruct",
    severity: "high",
    title: "Contract can self-destruct",
    pattern: /\b(selfdestruct|suicide)\s*\(/,
  },
  {
    id: "tx-origin-auth",
    severity: "high",
    title: "Authorisation by tx.origin (phishable)",
    pattern: /require\s*\([^;]*tx\.origin\s*==|tx\.origin\s*==\s*\w+/,
  },
  {
    id: "delegatecall",
    severity: "medium",
    title: "delegatecall to another contract (code it runs can change)",
    pattern: /\.delegatecall\s*\(/,
  },
  {
    id: "owner-mint",
    severity: "medium",
    title: "Privileged minting",
    pattern: /function\s+mint\w*\s*\([^)]*\)[^{;]*\b(onlyOwner|onlyRole|onlyMinter|onlyAdmin)\b/,
  },
  { id: "pausable", severity: "medium", title: "Transfers can be paused", pattern: /function\s+pause\s*\(\s*\)/ },
  {
    id: "blacklist",
    severity: "medium",
    title: "Owner can blacklist addresses",
    pattern: /function\s+\w*(blacklist|blocklist|addBot|setBot)\w*\s*\(/i,
  },
  {
    id: "fee-setter",
    severity: "medium",
    title: "Fees or taxes can be changed",
    pattern: /function\s+set\w*(Fee|Tax)\w*\s*\(/i,
  },
  {
    id: "upgradeable",
    severity: "low",
    title: "Upgradeable implementation",
    pattern: /function\s+(upgradeTo|upgradeToAndCall)\s*\(/,
  },
  {
    id: "unchecked-call",
    severity: "low",
    title: "Low-level call whose success is not checked",
    pattern: /^\s*[\w.[\]]+\.call\{?[^;]*;\s*$/m,
  },
];

/** Removes comments so that rules do not match commented-out code, keeping line numbers. */
export const stripComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, " ")).replace(/\/\/[^\n]*/g, "");

export function findAll(rule: Rule, path: string, source: string) {
  const code = stripComments(source);
  const flags = rule.pattern.flags.includes("g") ? rule.pattern.flags : `${rule.pattern.flags}g`;
  return [...code.matchAll(new RegExp(rule.pattern.source, flags))].map((m) => ({
    file: path,
    line: code.slice(0, m.index).split("\n").length,
    evidence: m[0].trim().slice(0, 160),
  }));
}

/** Solidity before 0.8.0 has no built-in overflow checks. */
export const compilerFindings = (version: string | null) => {
  const match = version?.match(/^(\d+)\.(\d+)\.(\d+)/);
  if (!match) return [];
  return Number(match[1]) === 0 && Number(match[2]) < 8
    ? [
        {
          id: "old-compiler",
          severity: "low" as const,
          title: `Compiled with solc ${match[0]}: no built-in overflow checks`,
        },
      ]
    : [];
};
