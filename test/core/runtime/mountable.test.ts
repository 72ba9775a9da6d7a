import { test } from "node:test";
import assert from "node:assert/strict";
import type { Endpoint } from "../../../core/endpoint.ts";
import { mountable } from "../../../core/runtime/container.ts";

const endpoint = (name: string, more: Partial<Endpoint> = {}) => ({ name, ...more }) as Endpoint;

test("mountable: a bundle whose part is unmounted is unmounted too, with the reason, through bundles of bundles", () => {
  const endpoints = [
    endpoint("sec-metrics", { upstreams: ["sec-data"] }),
    endpoint("gleif"),
    endpoint("company-risk", { composes: ["gleif", "sec-metrics"] }),
    endpoint("due-diligence", { composes: ["company-risk", "gleif"] }),
    endpoint("verify-fact", { upstreams: ["wikipedia-api"], optionalUpstreams: ["searxng"] }),
  ];
  const missing = (upstream: string) =>
    upstream === "sec-data" ? ["SEC_USER_AGENT"] : upstream === "searxng" ? ["UPSTREAM_SEARXNG_URL"] : [];
  const { mounted, disabled } = mountable(endpoints, missing, () => true);
  assert.deepEqual(
    mounted.map((e) => e.name),
    ["gleif", "verify-fact"],
  );
  assert.deepEqual(disabled, [
    { name: "sec-metrics", reason: "missing SEC_USER_AGENT (upstream sec-data)" },
    { name: "company-risk", reason: "its part sec-metrics disabled" },
    { name: "due-diligence", reason: "its part company-risk disabled" },
  ]);
});
