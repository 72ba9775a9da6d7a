import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import pdfText from "../../../plugins/converters/pdf-text.ts";
import { buildPdf } from "./fixtures/tiny-pdf.ts";
import { dataOf, errorOf, expectFree400 } from "../../helpers/expect.ts";
import pdfTextEndpoint from "../../../plugins/converters/pdf-text.ts";

const service = await startTestService({ plugins: ["converters"] });

const extract = async (pdf: string) => {
  const out = await service.call(pdfTextEndpoint, { pdf });
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return dataOf(out);
};

test("pdf-text: the text of every page, in order, with the document info", async () => {
  const pdf = buildPdf(["First page\nsecond line", "Page two (with parentheses)", ""], {
    title: "Report",
    author: "Ada",
  });
  assert.deepEqual(await extract(pdf.toString("base64")), {
    pageCount: 3,
    title: "Report",
    author: "Ada",
    pages: [
      { page: 1, text: "First page\nsecond line" },
      { page: 2, text: "Page two (with parentheses)" },
      { page: 3, text: "" },
    ],
    chars: 22 + 27,
  });
});

test("pdf-text: a PDF without an info dictionary has null title and author", async () => {
  const data = await extract(buildPdf(["Hello"]).toString("base64"));
  assert.equal(data.title, null);
  assert.equal(data.author, null);
  assert.deepEqual(data.pages, [{ page: 1, text: "Hello" }]);
});

test("pdf-text: accepts URL-safe base64 and a data: URL", async () => {
  const pdf = buildPdf(["Encoded ~~~ twice ???"]);
  const standard = pdf.toString("base64");
  assert.match(standard, /[+/]/, "the fixture exercises both alphabets");
  for (const form of [pdf.toString("base64url"), `data:application/pdf;base64,${standard}`]) {
    assert.equal((await extract(form)).pages[0].text, "Encoded ~~~ twice ???");
  }
});

test("pdf-text: a + sent unencoded in the query (read as a space) still decodes", async () => {
  const standard = buildPdf(["Encoded ~~~ twice ???"]).toString("base64");
  const asReceived = standard.replace(/\+/g, " ");
  assert.notEqual(asReceived, standard);
  assert.equal((await extract(asReceived)).pages[0].text, "Encoded ~~~ twice ???");
});

test("pdf-text: the documented example is a real call", async () => {
  const out = await service.call(pdfTextEndpoint, pdfText.example.input);
  assert.deepEqual(dataOf(out), pdfText.example.output);
});

const rejected = [
  {
    name: "base64 of something that is not a PDF",
    pdf: Buffer.from("hello, world").toString("base64"),
    message: /not a PDF/,
  },
  {
    name: "a damaged PDF",
    pdf: Buffer.from("%PDF-1.4\nthis is not really a pdf\n%%EOF").toString("base64"),
    message: /damaged/,
  },
];
for (const c of rejected) {
  test(`pdf-text: ${c.name} is a 400 naming pdf`, async () => {
    const out = await service.call(pdfTextEndpoint, { pdf: c.pdf });
    assert.equal(out.status, 400, JSON.stringify(out.body));
    const error = errorOf(out);
    assert.match(error.message, c.message);
    assert.deepEqual(
      error.details!.issues!.map((i: any) => i.field),
      ["pdf"],
    );
  });
}

const bad = [
  { name: "missing pdf", query: "", field: "pdf" },
  { name: "characters outside base64", query: "pdf=%25PDF-1.4%3F", field: "pdf" },
  { name: "base64 over 100,000 characters", query: `pdf=${"A".repeat(100_001)}`, field: "pdf" },
];
for (const c of bad) {
  test(`pdf-text: ${c.name} is a free 400 naming the field`, async () => {
    const res = await service.request(`/v1/pdf-text?${c.query}`);
    await expectFree400(res, c.field);
  });
}

test("pdf-text: valid input without payment is a 402", async () => {
  const pdf = encodeURIComponent(buildPdf(["Hello"]).toString("base64"));
  const res = await service.request(`/v1/pdf-text?pdf=${pdf}`);
  assert.equal(res.status, 402);
  assert.ok(res.headers.get("payment-required"));
  const body = await res.json();
  assert.equal(body.accepts[0].maxAmountRequired, "20000");
});
