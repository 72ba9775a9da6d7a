// Renders Markdown in a worker thread. Plain JavaScript, because worker threads do not get the tsx loader.
// Marked's emphasis matching can run for minutes on crafted input and deep nesting overflows its stack,
// so the main thread (_markdown.ts) gives every job a deadline and kills a worker that misses it.
import { JobError, serveJobs } from "../../core/runtime/worker-jobs.mjs";
import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";
import { convert } from "html-to-text";

const sanitizeOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "del", "input"],
  allowedAttributes: {
    a: ["href", "name", "title"],
    img: ["src", "alt", "title", "width", "height"],
    code: ["class"],
    th: ["align"],
    td: ["align"],
    ol: ["start"],
    input: ["type", "checked", "disabled"],
  },
  allowedClasses: { code: ["language-*"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  // GFM task lists render checkboxes: any other <input> is dropped, as is an image whose source was unsafe
  exclusiveFilter: (frame) =>
    (frame.tag === "input" && frame.attribs.type !== "checkbox") || (frame.tag === "img" && !frame.attribs.src),
};

const headings = ["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } }));

const textOptions = (keepLinks) => ({
  wordwrap: false,
  formatters: { altText: (elem, _walk, builder) => builder.addInline(String(elem.attribs?.alt ?? "")) },
  selectors: [
    ...headings,
    { selector: "a", options: { ignoreHref: !keepLinks, linkBrackets: ["(", ")"] } },
    { selector: "img", format: keepLinks ? "image" : "altText", options: { linkBrackets: ["(", ")"] } },
    { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
    { selector: "script", format: "skip" },
    { selector: "style", format: "skip" },
  ],
});

function run(job) {
  const html = new Marked({ gfm: job.gfm, breaks: job.breaks, async: false }).parse(job.markdown);
  if (job.output === "html") return sanitizeHtml(html, sanitizeOptions);
  return convert(html, textOptions(job.keepLinks)).replace(/^\n+/, "").trimEnd();
}

serveJobs((job) => {
  try {
    return run(job);
  } catch (error) {
    if (error instanceof RangeError) throw new JobError("too-deep", "The Markdown is nested too deeply");
    throw error;
  }
});
