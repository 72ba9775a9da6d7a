import { definePlugin } from "../../endpoint.ts";
import type { Runtime } from "../container.ts";
import { coreUpstreams } from "../upstreams.ts";
import { batch } from "./batch.ts";
import { service } from "./service.ts";
import { receiptsVerify } from "../../receipts/verify-endpoint.ts";

/** The `core` family: always loaded, whatever PLUGINS says. The report reads the runtime it runs in. */
export const corePlugin = (runtime: () => Runtime) =>
  definePlugin({
    family: "core",
    endpoints: [batch, service(runtime), receiptsVerify(runtime)],
    upstreams: coreUpstreams,
  });
