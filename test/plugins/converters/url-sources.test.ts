import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startTestService } from "../../helpers/service.ts";
import { startTarget } from "../../helpers/target-server.ts";
import htmlMd from "../../../plugins/converters/html-md.ts";
import pdfText from "../../../plugins/converters/pdf-text.ts";
import ocr from "../../../plugins/converters/ocr.ts";
import { dataOf, issuesOf } from "../../helpers/expect.ts";
import htmlMdEndpoint from "../../../plugins/converters/html-md.ts";
import ocrEndpoint from "../../../plugins/converters/ocr.ts";
import pdfTextEndpoint from "../../../plugins/converters/pdf-text.ts";

const target = await startTarget({
  "/page.html": { body: "<html><head><title>x</title></head><body><h1>Prices</h1><p>Tea <b>3</b></p></body></html>" },
  "/latin1.html": {
    headers: { "content-type": "text/html; charset=iso-8859-1" },
    body: Buffer.from("<p>caf\xe9</p>", "latin1"),
  },
  "/invoice.pdf": {
    headers: { "content-type": "application/pdf" },
    body: Buffer.from(pdfText.example.input.pdf!, "base64"),
  },
  "/hello.png": { headers: { "content-type": "image/png" }, body: Buffer.from(ocr.example.input.image!, "base64") },
  "/broken": { status: 500, body: "down" },
  "/text.txt": { headers: { "content-type": "text/plain" }, body: "not a pdf" },
});
after(() => target.close());
const service = await startTestService({ plugins: ["converters"], egressLoopbackPort: target.port });

for (const endpoint of [htmlMd, pdfText, ocr]) {
  test(`${endpoint.name}: its inline example still answers as documented`, async () => {
    const out = await service.call(endpoint.name, endpoint.example.input);
    assert.equal(out.status, 200);
    assert.deepEqual(dataOf(out), endpoint.example.output);
  });
}

test("html-md converts the page at a URL, decoding its declared charset", async () => {
  const page = await service.call(htmlMdEndpoint, { url: target.url("/page.html") });
  assert.equal(page.status, 200);
  assert.equal(dataOf(page).markdown, "# Prices\n\nTea **3**");
  const latin = await service.call(htmlMdEndpoint, { url: target.url("/latin1.html") });
  assert.equal(dataOf(latin).markdown, "café");
});

test("pdf-text and ocr read the file at a URL like the inline one", async () => {
  const pdf = await service.call(pdfTextEndpoint, { url: target.url("/invoice.pdf") });
  assert.equal(pdf.status, 200);
  assert.deepEqual(dataOf(pdf), pdfText.example.output);
  const image = await service.call(ocrEndpoint, { url: target.url("/hello.png") });
  assert.equal(image.status, 200);
  assert.equal(dataOf(image).text, "HELLO WORLD 42");
});

test("a URL that is not the right kind of file is a 400 on the url field", async () => {
  const out = await service.call(pdfTextEndpoint, { url: target.url("/text.txt") });
  assert.equal(out.status, 400);
  assert.equal(issuesOf(out)[0].field, "url");
});

test("neither or both sources are a 400 and nothing is fetched", async () => {
  const before = target.hits.length;
  const neither = await service.call(htmlMdEndpoint, {});
  assert.equal(neither.status, 400);
  assert.equal(issuesOf(neither)[0].field, "html");
  const both = await service.call(ocrEndpoint, { image: ocr.example.input.image, url: target.url("/hello.png") });
  assert.equal(both.status, 400);
  assert.equal(issuesOf(both)[0].field, "url");
  const notUrl = await service.call(pdfTextEndpoint, { url: "file:///etc/passwd" });
  assert.equal(notUrl.status, 400);
  assert.equal(target.hits.length, before);
});

test("a target that fails is a 502 and a private target is refused with 400", async () => {
  const failed = await service.call(htmlMdEndpoint, { url: target.url("/broken") });
  assert.equal(failed.status, 502);
  const refused = await service.call(pdfTextEndpoint, { url: "http://10.0.0.1/invoice.pdf" });
  assert.equal(refused.status, 400);
  const metadata = await service.call(ocrEndpoint, { url: "http://169.254.169.254/latest/meta-data" });
  assert.equal(metadata.status, 400);
});
