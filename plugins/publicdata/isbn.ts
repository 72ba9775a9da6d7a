import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError, notFound } from "../../core/runtime/errors.ts";
import { normalizeIsbn } from "./_pr-isbn.ts";

const s = v.nullish(v.string());
const Book = v.object({
  url: v.string(),
  key: v.string(),
  title: v.string(),
  subtitle: s,
  authors: v.nullish(v.array(v.object({ name: v.string(), url: v.string() }))),
  publishers: v.nullish(v.array(v.object({ name: v.string() }))),
  publish_date: s,
  number_of_pages: v.nullish(v.number()),
  subjects: v.nullish(v.array(v.object({ name: v.string() }))),
  cover: v.nullish(v.object({ small: s, medium: s, large: s })),
});
/** Open Library answers {} for an ISBN it does not hold (our 404); anything but books by key is the wrong shape. */
const Books = v.record(v.string(), Book);

export default defineEndpoint({
  name: "isbn",
  method: "GET",
  price: "$0.005",
  summary: "Book details for an ISBN (10 or 13): title, authors, publisher, date, pages, subjects, cover",
  description:
    "The check digit is verified locally first (a wrong one is a 400, nothing called), then the edition is looked up in Open Library (data CC0). Both ISBN forms are returned. A valid ISBN Open Library does not hold is a 404.",
  input: v.object({
    isbn: v.pipe(
      v.string(),
      v.regex(/^[\d][\d -]{8,15}[\dXx]$/, "must be an ISBN-10 or ISBN-13"),
      v.description("ISBN-10 or ISBN-13, hyphens allowed, e.g. 978-0-14-032872-1"),
    ),
  }),
  output: v.object({
    isbn10: v.nullable(v.string()),
    isbn13: v.string(),
    title: v.string(),
    subtitle: v.nullable(v.string()),
    authors: v.array(v.string()),
    publishers: v.array(v.string()),
    publishDate: v.nullable(
      v.pipe(v.string(), v.description("As the edition records it, e.g. 1988 or October 1, 1988")),
    ),
    pages: v.nullable(v.number()),
    subjects: v.array(v.string()),
    cover: v.nullable(v.pipe(v.string(), v.description("Cover image URL (large)"))),
    url: v.pipe(v.string(), v.description("Open Library edition page")),
  }),
  example: {
    input: { isbn: "0-14-032872-6" },
    output: {
      isbn10: "0140328726",
      isbn13: "9780140328721",
      title: "Fantastic Mr. Fox",
      subtitle: null,
      authors: ["Roald Dahl"],
      publishers: ["Puffin"],
      publishDate: "October 1, 1988",
      pages: 96,
      subjects: ["Animals", "Foxes", "Juvenile fiction"],
      cover: "https://covers.openlibrary.org/b/id/8739161-L.jpg",
      url: "https://openlibrary.org/books/OL7353617M/Fantastic_Mr._Fox",
    },
  },
  cacheTtl: 30 * 86_400,
  upstreams: ["open-library"],
  async handler({ input, upstream }) {
    const isbn = normalizeIsbn(input.isbn);
    if (!isbn) throw fieldError("isbn", "the ISBN check digit is wrong");
    const key = `ISBN:${isbn.isbn13}`;
    const books = await upstream("open-library").json("/api/books", Books, {
      query: { bibkeys: key, format: "json", jscmd: "data" },
    });
    const book = books[key];
    if (!book) throw notFound(`Open Library has no edition with ISBN ${isbn.isbn13}`);
    return {
      ...isbn,
      title: book.title,
      subtitle: book.subtitle ?? null,
      authors: (book.authors ?? []).map((a) => a.name),
      publishers: (book.publishers ?? []).map((p) => p.name),
      publishDate: book.publish_date ?? null,
      pages: book.number_of_pages ?? null,
      subjects: (book.subjects ?? []).map((s) => s.name),
      cover: book.cover?.large ?? book.cover?.medium ?? null,
      url: book.url,
    };
  },
});
