import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { createWorkerPool, refusedWork, WorkerJobFailed } from "../../core/runtime/worker-pool.ts";
import { base64Param, decodeBase64 } from "./_base64.ts";
import { contentOrUrl, urlParam } from "./_source.ts";

export default defineEndpoint({
  name: "pdf-text",
  method: "GET",
  price: "$0.02",
  mcp: true,
  summary: "Extract the text of each page of a PDF given as base64 or a URL",
  description:
    "Reads the PDF's text layer; scanned pages without one come back empty (use ocr on an image of the page). " +
    "The base64 text may be up to 100,000 characters (about 73 KB of PDF); a url is fetched through the egress guard " +
    "(public http(s) targets, up to 5 MB; a target that fails is a 502 and not charged). Encrypted PDFs answer 400.",
  probes: true,
  oneOf: [["pdf"], ["url"]],
  input: v.object({
    pdf: v.optional(
      base64Param(100_000, "The PDF file, base64 (standard or URL-safe alphabet, or a data: URL); or give url"),
    ),
    url: urlParam("PDF file"),
  }),
  output: v.object({
    pageCount: v.number(),
    title: v.nullable(v.string()),
    author: v.nullable(v.string()),
    pages: v.array(v.object({ page: v.pipe(v.number(), v.description("1-based page number")), text: v.string() })),
    chars: v.pipe(v.number(), v.description("Characters of text over all pages")),
  }),
  example: {
    input: {
      pdf: "JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIgMCBvYmoKPDwgL1R5cGUgL1BhZ2VzIC9LaWRzIFs0IDAgUl0gL0NvdW50IDEgPj4KZW5kb2JqCjMgMCBvYmoKPDwgL1R5cGUgL0ZvbnQgL1N1YnR5cGUgL1R5cGUxIC9CYXNlRm9udCAvSGVsdmV0aWNhID4+CmVuZG9iago0IDAgb2JqCjw8IC9UeXBlIC9QYWdlIC9QYXJlbnQgMiAwIFIgL01lZGlhQm94IFswIDAgNjEyIDc5Ml0gL1Jlc291cmNlcyA8PCAvRm9udCA8PCAvRjEgMyAwIFIgPj4gPj4gL0NvbnRlbnRzIDUgMCBSID4+CmVuZG9iago1IDAgb2JqCjw8IC9MZW5ndGggODYgPj4Kc3RyZWFtCkJUIC9GMSAxMiBUZiA3MiA3MjAgVGQgKEludm9pY2UgNDIpIFRqIEVUCkJUIC9GMSAxMiBUZiA3MiA3MDQgVGQgKFRvdGFsOiAxMCBVU0QpIFRqIEVUCmVuZHN0cmVhbQplbmRvYmoKNiAwIG9iago8PCAvVGl0bGUgKEludm9pY2UpID4+CmVuZG9iagp4cmVmCjAgNwowMDAwMDAwMDAwIDY1NTM1IGYgCjAwMDAwMDAwMDkgMDAwMDAgbiAKMDAwMDAwMDA1OCAwMDAwMCBuIAowMDAwMDAwMTE1IDAwMDAwIG4gCjAwMDAwMDAxODUgMDAwMDAgbiAKMDAwMDAwMDMxMSAwMDAwMCBuIAowMDAwMDAwNDQ3IDAwMDAwIG4gCnRyYWlsZXIKPDwgL1NpemUgNyAvUm9vdCAxIDAgUiAvSW5mbyA2IDAgUiA+PgpzdGFydHhyZWYKNDg1CiUlRU9GCg==",
    },
    output: {
      pageCount: 1,
      title: "Invoice",
      author: null,
      pages: [
        {
          page: 1,
          text: "Invoice 42\nTotal: 10 USD",
        },
      ],
      chars: 24,
    },
  },
  async handler({ input, egress, signal }) {
    const source = await contentOrUrl(egress, input.pdf, input.url);
    const bytes = "inline" in source ? decodeBase64(source.inline) : source.fetched;
    const field = input.url ? "url" : "pdf";
    if (!bytes.subarray(0, 1024).includes("%PDF-")) throw fieldError(field, "This is not a PDF (no %PDF- header)");
    const read = await pool
      .run<Read>({ bytes: new Uint8Array(bytes) }, { timeoutMs: readTimeoutMs, signal })
      .catch((error) => {
        if (error instanceof WorkerJobFailed && (error.kind === "encrypted" || error.kind === "damaged"))
          throw fieldError(field, error.message);
        throw refusedWork(error, field, "the PDF");
      });
    const pages = read.pages.map((text, i) => ({ page: i + 1, text }));
    return {
      pageCount: read.totalPages,
      title: read.title,
      author: read.author,
      pages,
      chars: pages.reduce((sum, p) => sum + p.text.length, 0),
    };
  },
});

interface Read {
  totalPages: number;
  pages: string[];
  title: string | null;
  author: string | null;
}

const readTimeoutMs = 15_000;
const pool = createWorkerPool({ file: new URL("./_pdf-worker.mjs", import.meta.url), memoryMb: 256, keepIdle: 1 });
