import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { schemasOf } from "../../../core/runtime/schema.ts";
import { rawRequestsFor } from "../../helpers/bad-inputs.ts";
import {
  badInputs,
  concurrency,
  endpoints,
  free,
  knownFailures,
  maxBodyBytes,
  operator,
  overHttp,
  problemsOfResponse,
  reachesOut,
  service,
} from "./_bad-input.ts";

/** Every endpoint's bad inputs over HTTP; a file takes one share of the endpoints, so no one file holds them all. */
export function badInputOverHttp(share: number, shares: number) {
  describe("bad input over HTTP: refused with the JSON error body, never a 5xx", { concurrency }, () => {
    for (const e of endpoints.filter((_, i) => i % shares === share)) {
      it(`${e.method} ${e.path}`, { skip: knownFailures.get(e.name) }, async () => {
        const problems: string[] = [];
        for (const bad of badInputs(e)) {
          const res = await overHttp(e, bad);
          if (res) problems.push(...(await problemsOfResponse(bad.label, res, free(e) && reachesOut(e))));
        }
        const fields = Object.keys(schemasOf(e).input.properties ?? {});
        for (const raw of rawRequestsFor(e.method, fields, maxBodyBytes)) {
          const res =
            raw.query !== undefined
              ? await service.request(`${e.path}?${raw.query}`, { headers: operator })
              : await service.request(e.path, {
                  method: "POST",
                  body: raw.body,
                  headers: { ...operator, "content-type": "application/json" },
                });
          problems.push(...(await problemsOfResponse(raw.label, res, free(e) && reachesOut(e))));
        }
        const otherMethod = await service.request(e.path, { method: e.method === "GET" ? "PUT" : "GET" });
        problems.push(...(await problemsOfResponse("the wrong method", otherMethod, false)));
        assert.deepEqual(problems, []);
      });
    }
  });
}
