import { XMLValidator } from "fast-xml-parser";
import { lineColumnAt, tryParseJson } from "./_json.ts";
import { assertYamlDepth, yamlLibrary } from "./_yaml.ts";

export interface SyntaxProblem {
  line: number;
  column: number;
  message: string;
}

export const languages = ["javascript", "json", "yaml", "xml", "solidity"] as const;
export type Language = (typeof languages)[number];

/** Syntax errors only; nothing is executed or compiled beyond parsing. Lines and columns are 1-based. */
export async function syntaxProblems(
  language: Language,
  code: string,
  sourceType: "module" | "script",
): Promise<SyntaxProblem[]> {
  switch (language) {
    case "javascript":
      return javascriptProblems(code, sourceType);
    case "json": {
      const parsed = tryParseJson(code);
      return parsed.ok ? [] : [parsed.error];
    }
    case "yaml":
      await assertYamlDepth(code, "code");
      return (await yamlLibrary())
        .parseAllDocuments(code)
        .flatMap((doc) => doc.errors)
        .map((e) => ({
          line: e.linePos?.[0].line ?? 1,
          column: e.linePos?.[0].col ?? 1,
          message: firstLine(e.message),
        }));
    case "xml": {
      const result = XMLValidator.validate(code);
      return result === true
        ? []
        : [{ line: result.err.line ?? 1, column: result.err.col ?? 1, message: result.err.msg }];
    }
    case "solidity":
      return solidityProblems(code);
  }
}

async function javascriptProblems(code: string, sourceType: "module" | "script"): Promise<SyntaxProblem[]> {
  const { parse: parseJs } = await import("acorn");
  try {
    parseJs(code, { ecmaVersion: "latest", sourceType, allowHashBang: true, locations: true });
    return [];
  } catch (error) {
    const { loc, message } = error as SyntaxError & { loc?: { line: number; column: number } };
    return [{ line: loc?.line ?? 1, column: (loc?.column ?? 0) + 1, message: message.replace(/ \(\d+:\d+\)$/, "") }];
  }
}

interface SolcError {
  severity: string;
  message: string;
  type: string;
  sourceLocation?: { start: number };
}

/** solc-js (already a dependency for the devnet token) stopped after parsing; loaded on first use, it is large. */
async function solidityProblems(code: string): Promise<SyntaxProblem[]> {
  const { default: solc } = await import("solc");
  const input = {
    language: "Solidity",
    sources: { "input.sol": { content: code } },
    settings: { stopAfter: "parsing", outputSelection: { "*": { "": [] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as { errors?: SolcError[] };
  const bytes = Buffer.from(code, "utf8");
  return (output.errors ?? [])
    .filter((e) => e.severity === "error")
    .map((e) => {
      const start = e.sourceLocation?.start ?? -1;
      // solc counts bytes of UTF-8; positions here count UTF-16 code units
      const position =
        start >= 0 ? lineColumnAt(code, bytes.subarray(0, start).toString("utf8").length) : { line: 1, column: 1 };
      return { ...position, message: `${e.type}: ${e.message}` };
    });
}

const firstLine = (message: string) => message.split("\n")[0].replace(/ at line \d+, column \d+:$/, "");
