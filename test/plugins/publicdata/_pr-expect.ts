import assert from "node:assert/strict";

interface Requester {
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** A GET with bad input is a 400 before any payment, and its issues name the field. */
export async function expectBadInput(service: Requester, path: string, field: string) {
  const res = await service.request(path);
  assert.equal(res.status, 400, path);
  assert.equal(res.headers.get("payment-required"), null, path);
  const body = await res.json();
  assert.equal(body.error.code, "invalid_input", path);
  assert.ok(body.error.details.issues.some((i: { field: string }) => i.field === field), `${path}: ${JSON.stringify(body)}`);
}
