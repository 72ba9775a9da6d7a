import type { UpstreamTable } from "../upstreams.ts";

export const swap = {} satisfies UpstreamTable;
