// Converts HTML to Markdown in a worker thread (plain JavaScript: worker threads do not get the tsx loader).
// turndown recurses once per nested element and its DOM (domino) parses on the calling thread: 9,000 nested
// <div> overflowed its stack after seconds on the event loop. Here a depth check comes first and the main
// thread (html-md.ts) gives each job a deadline.
import TurndownService from "turndown";
import { JobError, htmlDepthOver, serveJobs } from "../../core/runtime/worker-jobs.mjs";

const dropped = [
  "head",
  "title",
  "meta",
  "link",
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "object",
  "embed",
  "form",
  "button",
  "select",
  "textarea",
];

function convert({ html, headingStyle, codeBlockStyle, maxDepth }) {
  if (htmlDepthOver(html, maxDepth))
    throw new JobError("too-deep", `the HTML nests elements more than ${maxDepth} deep`);
  const service = new TurndownService({ headingStyle, codeBlockStyle, bulletListMarker: "-" });
  service.remove(dropped);
  gfm(service);
  return service.turndown(html);
}

/**
 * GitHub-flavoured tables and strikethrough for turndown (turndown-plugin-gfm is not a dependency).
 * The first row of every table becomes its header row, since GFM tables must have one.
 */
function gfm(service) {
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

const cellText = (content) =>
  content
    .trim()
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|");

serveJobs(convert);
