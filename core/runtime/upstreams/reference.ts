import type { UpstreamTable } from "../upstreams.ts";

export const reference = {} satisfies UpstreamTable;
