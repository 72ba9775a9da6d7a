import type * as cheerio from "cheerio";
import { loadHtml } from "../_shared/html-parsers.ts";

const tablesOf = ($: cheerio.CheerioAPI) => $("table").toArray();
/** An element as cheerio hands it out (its type lives in a transitive package). */
type Element = ReturnType<typeof tablesOf>[number];

const maxSpan = 100;
const maxColumns = 100;

export interface ParsedTable {
  index: number;
  caption: string | null;
  headers: string[];
  headerDetected: boolean;
  rows: Record<string, string>[];
  rowCount: number;
  truncated: boolean;
}

interface Cell {
  text: string;
  header: boolean;
}

/** Every <table> in the page, in document order, as rows keyed by header. */
export function parseTables(html: string, limit: number, maxRows: number): { total: number; tables: ParsedTable[] } {
  const $ = loadHtml(html);
  const all = tablesOf($);
  const tables = all.slice(0, limit).map((table, index) => toTable($, table, index, maxRows));
  return { total: all.length, tables };
}

function toTable($: cheerio.CheerioAPI, table: Element, index: number, maxRows: number): ParsedTable {
  const ownRows = $(table)
    .find("tr")
    .toArray()
    .filter((tr) => $(tr).closest("table")[0] === table);
  const grid = expandSpans($, ownRows);
  const headRowCount = countHeaderRows($, ownRows, grid);
  const width = Math.min(maxColumns, Math.max(0, ...grid.map((row) => row.length)));
  const headers = headerNames(grid.slice(0, headRowCount), width);
  const body = grid.slice(headRowCount).filter((row) => row.some((cell) => cell?.text));
  const rows = body
    .slice(0, maxRows)
    .map((row) => Object.fromEntries(headers.map((name, i) => [name, row[i]?.text ?? ""])));
  const caption = $(table).children("caption").first().text().replace(/\s+/g, " ").trim();
  return {
    index,
    caption: caption || null,
    headers,
    headerDetected: headRowCount > 0,
    rows,
    rowCount: body.length,
    truncated: body.length > maxRows,
  };
}

/** Places every cell in a grid, copying a cell into each row and column it spans. */
function expandSpans($: cheerio.CheerioAPI, rows: Element[]): Cell[][] {
  const grid: Cell[][] = [];
  rows.forEach((tr, r) => {
    grid[r] ??= [];
    let col = 0;
    for (const cell of $(tr).children("th, td").toArray()) {
      while (grid[r][col]) col++;
      const value: Cell = {
        text: $(cell).text().replace(/\s+/g, " ").trim(),
        header: "tagName" in cell && cell.tagName === "th",
      };
      const rowSpan = span($(cell).attr("rowspan"), rows.length - r);
      const colSpan = span($(cell).attr("colspan"), maxColumns - col);
      for (let dr = 0; dr < rowSpan; dr++) for (let dc = 0; dc < colSpan; dc++) (grid[r + dr] ??= [])[col + dc] = value;
      col += colSpan;
    }
  });
  return grid;
}

function span(raw: string | undefined, room: number): number {
  const n = Number.parseInt(raw ?? "1", 10);
  return Math.max(1, Math.min(Number.isFinite(n) ? n : 1, maxSpan, Math.max(1, room)));
}

/** Rows in <thead>, or else a leading row made only of <th> cells. */
function countHeaderRows($: cheerio.CheerioAPI, rows: Element[], grid: Cell[][]): number {
  const inHead = rows.filter((tr) => $(tr).parent().is("thead")).length;
  if (inHead > 0 && rows.slice(0, inHead).every((tr) => $(tr).parent().is("thead"))) return inHead;
  const first = grid[0]?.filter(Boolean) ?? [];
  return first.length > 0 && first.every((cell) => cell.header) ? 1 : 0;
}

/** Joins stacked header rows per column; blank names become column_N and repeats get a suffix. */
function headerNames(headRows: Cell[][], width: number): string[] {
  const seen = new Map<string, number>();
  return Array.from({ length: width }, (_, i) => {
    const parts = headRows.map((row) => row[i]?.text ?? "").filter(Boolean);
    const base = [...new Set(parts)].join(" / ") || `column_${i + 1}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}_${count}`;
  });
}
