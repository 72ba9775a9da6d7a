import type TurndownService from "turndown";

/**
 * GitHub-flavoured tables and strikethrough for turndown (turndown-plugin-gfm is not a dependency).
 * The first row of every table becomes its header row, since GFM tables must have one.
 */
export function gfm(service: TurndownService): void {
  service.addRule("strikethrough", {
    filter: ["del", "s"],
    replacement: (content) => `~~${content}~~`,
  });
  service.addRule("tableCell", {
    filter: ["th", "td"],
    replacement: (content, node) => `${node.previousElementSibling ? " " : "| "}${cellText(content)} |`,
  });
  service.addRule("tableRow", {
    filter: "tr",
    replacement: (content, node) => {
      const table = node.closest("table");
      const isFirst = table?.querySelector("tr") === node;
      const separator = isFirst ? `\n|${" --- |".repeat(node.children.length)}` : "";
      return `\n${content}${separator}`;
    },
  });
  service.addRule("table", {
    filter: "table",
    replacement: (content) => `\n\n${content.replace(/\n+/g, "\n").trim()}\n\n`,
  });
}

const cellText = (content: string) => content.trim().replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
