import type { UpstreamTable } from "../upstreams.ts";

export const arcade = {} satisfies UpstreamTable;
