import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { serve } from "h3";
import { invoke } from "../../../core/runtime/invoke.ts";
import { startTestService } from "../../helpers/service.ts";

const token = "operator-secret-for-tests";

async function site(t: { after(fn: () => unknown): void }, clock = { at: new Date("2026-05-04T10:00:00Z") }) {
  const service = await startTestService({
    plugins: ["site"],
    now: () => clock.at,
    env: { REVIEWS_OPERATOR_TOKEN: token },
  });
  t.after(() => service.close());
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    service.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const operator = { authorization: `Bearer ${token}` };
  const submit = async (review: unknown) => post("/site/api/reviews", review);
  const pending = async () =>
    (await (await service.request("/site/api/reviews/pending", { headers: operator })).json()).data.reviews;
  const approved = async () => (await (await service.request("/site/api/reviews")).json()).data.reviews;
  const approve = (id: string, headers: Record<string, string> = operator) =>
    post("/site/api/reviews/approve", { id }, headers);
  return { service, clock, post, submit, pending, approved, approve };
}

test("a review is held until an operator approves it, then listed newest first with its text as written", async (t) => {
  const s = await site(t);
  const first = await (await s.submit({ rating: 4, text: "  Fast answers.  ", name: "Ada" })).json();
  assert.equal(first.data.status, "pending");
  assert.equal(first.data.remainingThisHour, 4);
  s.clock.at = new Date("2026-05-04T10:05:00Z");
  const second = await (await s.submit({ rating: 2, text: "<script>alert(1)</script>" })).json();

  assert.deepEqual(await s.approved(), []);
  const held = await s.pending();
  assert.deepEqual(
    held.map((r: any) => r.id),
    [first.data.id, second.data.id],
  );
  assert.deepEqual(held[0], {
    id: first.data.id,
    rating: 4,
    name: "Ada",
    text: "Fast answers.",
    createdAt: "2026-05-04T10:00:00.000Z",
  });

  for (const id of [first.data.id, second.data.id]) assert.equal((await s.approve(id)).status, 200);
  const listed = await s.approved();
  assert.deepEqual(
    listed.map((r: any) => r.id),
    [second.data.id, first.data.id],
  );
  assert.equal(listed[0].text, "<script>alert(1)</script>");
  assert.deepEqual(await s.pending(), []);

  // Approving twice changes nothing; an unknown id is a 404.
  assert.equal((await s.approve(first.data.id)).status, 200);
  assert.equal((await s.approved()).length, 2);
  assert.equal((await s.approve(randomUUID())).status, 404);

  // The page escapes what the visitor wrote.
  const html = await (await s.service.request("/reviews")).text();
  assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
  assert.ok(!html.includes("<script>alert(1)"));
  assert.match(html, /2 reviews, 3\.0 stars on average\./);
});

test("a rejected review is never shown", async (t) => {
  const s = await site(t);
  const { data } = await (await s.submit({ rating: 1, text: "spam spam" })).json();
  const res = await s.post("/site/api/reviews/reject", { id: data.id }, { authorization: `Bearer ${token}` });
  assert.deepEqual((await res.json()).data, { id: data.id, status: "rejected" });
  assert.deepEqual(await s.pending(), []);
  assert.equal((await s.approve(data.id)).status, 404);
  assert.deepEqual(await s.approved(), []);
});

test("5 reviews per visitor and hour: the sixth is a 429 with Retry-After, other visitors and the next hour are not affected", async (t) => {
  const s = await site(t, { at: new Date("2026-05-04T10:45:00Z") });
  for (let i = 1; i <= 5; i++) assert.equal((await s.submit({ rating: 5, text: `review ${i}` })).status, 200);
  const refused = await s.submit({ rating: 5, text: "one more" });
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get("retry-after"), "900");
  assert.equal((await refused.json()).error.code, "rate_limited");
  assert.equal((await s.pending()).length, 5);

  const endpoint = s.service.runtime.endpoints.find((e) => e.name === "site/review-submit")!;
  const other = await invoke(s.service.runtime, {
    endpoint,
    input: { rating: 3, text: "from elsewhere" },
    resource: "",
    requestId: "r",
    clientIp: "203.0.113.9",
  });
  assert.equal(other.status, 200);

  s.clock.at = new Date("2026-05-04T11:00:01Z");
  assert.equal((await s.submit({ rating: 5, text: "next hour" })).status, 200);
});

test("sizes are capped and bad reviews are refused with the field named, without counting against the visitor", async (t) => {
  const s = await site(t);
  const cases: [unknown, string][] = [
    [{ rating: 5, text: "x".repeat(1001) }, "text"],
    [{ rating: 5, text: "   " }, "text"],
    [{ rating: 5, text: "ok", name: "n".repeat(61) }, "name"],
    [{ rating: 6, text: "ok" }, "rating"],
    [{ rating: 4.5, text: "ok" }, "rating"],
    [{ text: "ok" }, "rating"],
  ];
  for (const [review, field] of cases) {
    const res = await s.submit(review);
    assert.equal(res.status, 400, JSON.stringify(review));
    assert.ok(
      (await res.json()).error.details.issues.some((i: any) => i.field === field),
      field,
    );
  }
  assert.equal((await s.submit({ rating: 5, text: "x".repeat(1000), name: "n".repeat(60) })).status, 200);
  assert.equal((await (await s.submit({ rating: 5, text: "again" })).json()).data.remainingThisHour, 3);
});

test("operator routes refuse a missing or wrong token, and are not mounted without REVIEWS_OPERATOR_TOKEN", async (t) => {
  const s = await site(t);
  const { data } = await (await s.submit({ rating: 5, text: "hello" })).json();
  for (const headers of [{}, { authorization: "Bearer wrong" }, { authorization: token }] as Record<string, string>[]) {
    const res = await s.approve(data.id, headers);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("www-authenticate"), "Bearer");
    assert.equal((await s.service.request("/site/api/reviews/pending", { headers })).status, 401);
  }
  assert.deepEqual(await s.approved(), []);

  const bare = await startTestService({ plugins: ["site"] });
  t.after(() => bare.close());
  assert.equal(
    (await bare.request("/site/api/reviews/pending", { headers: { authorization: `Bearer ${token}` } })).status,
    404,
  );
  assert.ok(bare.runtime.disabled.some((d) => d.name === "site/review-approve"));
  assert.ok(bare.runtime.endpoints.some((e) => e.name === "site/review-submit"));
});

test("npm run reviews lists the held reviews and approves one through the operator routes", async (t) => {
  const s = await site(t);
  const server = serve(s.service.app, { port: 0, hostname: "127.0.0.1", silent: true });
  await server.ready();
  t.after(() => server.close(true));
  const { data } = await (await s.submit({ rating: 3, text: "Good\nenough", name: "Lin" })).json();
  const cli = (...args: string[]) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/reviews.ts", ...args], {
      cwd: new URL("../../../", import.meta.url).pathname,
      env: { ...process.env, BASE_URL: server.url!, REVIEWS_OPERATOR_TOKEN: token },
    });
  const listed = await cli("list");
  assert.match(listed.stdout, new RegExp(`^${data.id}  ★★★☆☆  2026-05-04T10:00:00.000Z  Lin\\n    Good enough\\n$`));
  const approved = await cli("approve", data.id);
  assert.match(approved.stdout, new RegExp(`^Approved ${data.id}`));
  assert.deepEqual(
    (await s.approved()).map((r: any) => r.id),
    [data.id],
  );
  assert.deepEqual(await s.pending(), []);
});
