/** ISBN-10 and ISBN-13 check digits, and conversion between them. */

const digits = (isbn: string) => isbn.replace(/[\s-]/g, "").toUpperCase();

function isbn10Valid(s: string) {
  if (!/^\d{9}[\dX]$/.test(s)) return false;
  const sum = [...s].reduce((acc, c, i) => acc + (c === "X" ? 10 : Number(c)) * (10 - i), 0);
  return sum % 11 === 0;
}

const isbn13Check = (first12: string) =>
  (10 - ([...first12].reduce((acc, c, i) => acc + Number(c) * (i % 2 ? 3 : 1), 0) % 10)) % 10;

function isbn13Valid(s: string) {
  return /^97[89]\d{10}$/.test(s) && isbn13Check(s.slice(0, 12)) === Number(s[12]);
}

function to10(isbn13: string): string | null {
  if (!isbn13.startsWith("978")) return null;
  const core = isbn13.slice(3, 12);
  const sum = [...core].reduce((acc, c, i) => acc + Number(c) * (10 - i), 0);
  const check = (11 - (sum % 11)) % 11;
  return core + (check === 10 ? "X" : String(check));
}

/** Both forms of a valid ISBN, or undefined when the check digit is wrong. */
export function normalizeIsbn(input: string): { isbn10: string | null; isbn13: string } | undefined {
  const s = digits(input);
  if (s.length === 10 && isbn10Valid(s)) {
    const first12 = `978${s.slice(0, 9)}`;
    return { isbn10: s, isbn13: first12 + isbn13Check(first12) };
  }
  if (s.length === 13 && isbn13Valid(s)) return { isbn10: to10(s), isbn13: s };
  return undefined;
}
