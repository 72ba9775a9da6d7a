import { refusedWork, createWorkerPool } from "../../core/runtime/worker-pool.ts";

export interface Article {
  title: string | null;
  byline: string | null;
  siteName: string | null;
  publishedTime: string | null;
  lang: string | null;
  excerpt: string | null;
  text: string;
  method: "readability" | "body";
}

export interface Outline {
  headings: { level: number; text: string }[];
  links: { total: number; internal: number; external: number };
}

/** Real pages nest far less; deeper trees only make Readability and the parser slower. */
const maxDepth = 256;
const readTimeoutMs = 10_000;
const pool = createWorkerPool({ file: new URL("./_article-worker.mjs", import.meta.url), memoryMb: 256 });

/** Readability's article (or the body text when it finds none), read in a worker with a deadline. */
export async function readArticle(html: string, url: string, signal: AbortSignal): Promise<Article> {
  return (await read(html, url, false, signal)).article;
}

/** The article plus the page's headings and link counts, in one parse. */
export function readPage(
  html: string,
  url: string,
  signal: AbortSignal,
): Promise<{ article: Article; outline: Outline }> {
  return read(html, url, true, signal) as Promise<{ article: Article; outline: Outline }>;
}

async function read(
  html: string,
  url: string,
  outline: boolean,
  signal: AbortSignal,
): Promise<{ article: Article; outline?: Outline }> {
  try {
    return await pool.run({ html, url, maxDepth, outline }, { timeoutMs: readTimeoutMs, signal });
  } catch (error) {
    throw refusedWork(error, "url", "the page");
  }
}
