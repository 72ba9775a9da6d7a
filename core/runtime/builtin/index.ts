import { definePlugin } from "../../endpoint.ts";
import { coreUpstreams } from "../upstreams.ts";
import { batch } from "./batch.ts";
import { service } from "./service.ts";
import { receiptsVerify } from "../../receipts/verify-endpoint.ts";

/** The `core` family: always loaded, whatever PLUGINS says. */
export const corePlugin = definePlugin({
  family: "core",
  endpoints: [batch, service, receiptsVerify],
  upstreams: coreUpstreams,
});
