import * as v from "valibot";
import { extractText, getDocumentProxy, getMeta } from "unpdf";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
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
    pdf: v.optional(base64Param(100_000, "The PDF file, base64 (standard or URL-safe alphabet, or a data: URL); or give url")),
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
    input: { pdf: "JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIgMCBvYmoKPDwgL1R5cGUgL1BhZ2VzIC9LaWRzIFs0IDAgUl0gL0NvdW50IDEgPj4KZW5kb2JqCjMgMCBvYmoKPDwgL1R5cGUgL0ZvbnQgL1N1YnR5cGUgL1R5cGUxIC9CYXNlRm9udCAvSGVsdmV0aWNhID4+CmVuZG9iago0IDAgb2JqCjw8IC9UeXBlIC9QYWdlIC9QYXJlbnQgMiAwIFIgL01lZGlhQm94IFswIDAgNjEyIDc5Ml0gL1Jlc291cmNlcyA8PCAvRm9udCA8PCAvRjEgMyAwIFIgPj4gPj4gL0NvbnRlbnRzIDUgMCBSID4+CmVuZG9iago1IDAgb2JqCjw8IC9MZW5ndGggODYgPj4Kc3RyZWFtCkJUIC9GMSAxMiBUZiA3MiA3MjAgVGQgKEludm9pY2UgNDIpIFRqIEVUCkJUIC9GMSAxMiBUZiA3MiA3MDQgVGQgKFRvdGFsOiAxMCBVU0QpIFRqIEVUCmVuZHN0cmVhbQplbmRvYmoKNiAwIG9iago8PCAvVGl0bGUgKEludm9pY2UpID4+CmVuZG9iagp4cmVmCjAgNwowMDAwMDAwMDAwIDY1NTM1IGYgCjAwMDAwMDAwMDkgMDAwMDAgbiAKMDAwMDAwMDA1OCAwMDAwMCBuIAowMDAwMDAwMTE1IDAwMDAwIG4gCjAwMDAwMDAxODUgMDAwMDAgbiAKMDAwMDAwMDMxMSAwMDAwMCBuIAowMDAwMDAwNDQ3IDAwMDAwIG4gCnRyYWlsZXIKPDwgL1NpemUgNyAvUm9vdCAxIDAgUiAvSW5mbyA2IDAgUiA+PgpzdGFydHhyZWYKNDg1CiUlRU9GCg==" },
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
  async handler({ input, egress }) {
    const source = await contentOrUrl(egress, input.pdf, input.url);
    const bytes = "inline" in source ? decodeBase64(source.inline) : source.fetched;
    if (!bytes.subarray(0, 1024).includes("%PDF-")) throw fieldError(input.url ? "url" : "pdf", "This is not a PDF (no %PDF- header)");
    const document = await open(bytes);
    try {
      const { totalPages, text } = await extractText(document, { mergePages: false });
      const { info } = await getMeta(document);
      const pages = text.map((pageText, i) => ({ page: i + 1, text: pageText }));
      return {
        pageCount: totalPages,
        title: textOrNull(info.Title),
        author: textOrNull(info.Author),
        pages,
        chars: pages.reduce((sum, p) => sum + p.text.length, 0),
      };
    } finally {
      await document.destroy();
    }
  },
});

async function open(bytes: Buffer) {
  try {
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    const name = (error as Error).name;
    if (name === "PasswordException") throw fieldError("pdf", "The PDF is encrypted with a password");
    if (name === "InvalidPDFException" || name === "FormatError") throw fieldError("pdf", "The PDF is damaged or not a PDF");
    throw error;
  }
}

const textOrNull = (value: unknown) => (typeof value === "string" && value.trim() ? value : null);
