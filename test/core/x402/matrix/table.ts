import type { ClassName, Way } from "./way.ts";

export interface Result {
  status: "pass" | "FAIL" | "n/a";
  note?: string;
}

/** The matrix as text: classes across, ways to pay down, each cell pass, FAIL, n/a or missing; then why. */
export function tableOf(
  classNames: ClassName[],
  descriptions: Record<ClassName, string>,
  ways: Way[],
  results: Map<string, Result>,
  cellOf: (cls: ClassName, way: Way) => string,
) {
  const rows = [
    ["way to pay", ...classNames],
    ...ways.map((way) => [way.name, ...classNames.map((cls) => results.get(cellOf(cls, way))?.status ?? "missing")]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  const notes = (status: Result["status"]) =>
    ways.flatMap((way) =>
      classNames.flatMap((cls) => {
        const r = results.get(cellOf(cls, way));
        return r?.status === status ? [`  ${way.name} × ${cls}: ${r.note ?? ""}`] : [];
      }),
    );
  const count = (status: string) =>
    rows
      .slice(1)
      .flatMap((r) => r.slice(1))
      .filter((c) => c === status).length;
  return [
    "",
    `attack matrix: ${classNames.length} classes × ${ways.length} ways to pay: ${count("pass")} pass, ${count("FAIL")} FAIL, ${count("n/a")} n/a, ${count("missing")} missing`,
    line(rows[0]),
    line(widths.map((n) => "-".repeat(n))),
    ...rows.slice(1).map(line),
    "classes:",
    ...classNames.map((cls) => `  ${cls}: ${descriptions[cls]}`),
    "n/a:",
    ...notes("n/a"),
    ...(count("FAIL") ? ["FAIL:", ...notes("FAIL")] : []),
    "",
  ].join("\n");
}
