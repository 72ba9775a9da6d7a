// Reads a PDF's text layer in a worker thread (plain JavaScript: worker threads do not get the tsx loader).
// pdf.js runs on the calling thread in Node, and a crafted document can keep it busy or swell its heap:
// pdf-text.ts gives each job a deadline and the worker a heap limit.
import { extractText, getDocumentProxy, getMeta } from "unpdf";
import { JobError, serveJobs } from "../../core/runtime/worker-jobs.mjs";

async function read({ bytes }) {
  const document = await open(bytes);
  try {
    const { totalPages, text } = await extractText(document, { mergePages: false });
    const { info } = await getMeta(document);
    return { totalPages, pages: text, title: textOrNull(info.Title), author: textOrNull(info.Author) };
  } finally {
    await document.destroy();
  }
}

async function open(bytes) {
  try {
    return await getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false });
  } catch (error) {
    if (error?.name === "PasswordException") throw new JobError("encrypted", "The PDF is encrypted with a password");
    if (error?.name === "InvalidPDFException" || error?.name === "FormatError")
      throw new JobError("damaged", "The PDF is damaged or not a PDF");
    throw error;
  }
}

const textOrNull = (value) => (typeof value === "string" && value.trim() ? value : null);

serveJobs(read);
