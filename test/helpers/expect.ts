import assert from "node:assert/strict";
import type { Outcome } from "../../core/runtime/call.ts";
import type { Answer } from "./service.ts";

/** A query string from plain values, encoded the way a client would send it. */
export const query = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

/** The `data` of a successful call, typed by the endpoint's output when the call named the endpoint by its definition. */
export function dataOf<T>(out: { status: number; body: Answer<T> }): T;
export function dataOf(out: Outcome): any;
export function dataOf(out: { status: number; body: unknown }) {
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return (out.body as { data: unknown }).data;
}

/** A field the input check refused, as a 400's `details.issues` lists it. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** The details some errors carry: the fields refused, the upstream that failed and its status, or an error's own. */
export interface ErrorDetails {
  issues?: FieldIssue[];
  upstream?: string;
  status?: number;
  [detail: string]: unknown;
}

/**
 * The `error` of a failed call (any status of 400 and above); `D` names the details an error of this kind carries
 * (`errorOf<{ lists: string[] }>(out)`).
 */
export function errorOf<D extends object = ErrorDetails>(out: { status: number; body: unknown }) {
  assert.ok(out.status >= 400, `expected a failure, got ${out.status}: ${JSON.stringify(out.body)}`);
  const { error } = out.body as { error?: { code: string; message: string; details?: D } };
  assert.ok(error, JSON.stringify(out.body));
  return error;
}

/** The fields a failed call's input check refused (`error.details.issues`), in the order given. */
export function issuesOf(out: { status: number; body: unknown }): FieldIssue[] {
  const { issues } = errorOf(out).details ?? {};
  assert.ok(Array.isArray(issues), JSON.stringify(out.body));
  return issues;
}

/** Bad input answered before any payment or handler: 400, no payment requirements, the field named. */
export async function expectFree400(res: Response, field: string) {
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("payment-required"), null);
  const body = await res.json();
  assert.equal(body.error.code, "invalid_input");
  assert.ok(
    body.error.details.issues.some((i: { field: string }) => i.field === field),
    JSON.stringify(body),
  );
  return body;
}
